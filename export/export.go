// Package export writes a converted statement as JSON, CSV or XLSX to an
// io.Writer.
//
// The three formats carry the same transactions in the same column order
// (date, type, description, amountIn, amountOut, balance). Money is
// decimal text with a dot and exactly two decimals in JSON and CSV, and a
// numeric cell with a two-decimal format in XLSX. In CSV and XLSX, a text
// cell that a spreadsheet would run as a formula is neutralised with a
// leading single quote, because statement text comes from documents other
// people wrote.
//
// It knows nothing of HTTP or SQL: the server and the CLI choose a Format
// and hand Write a writer.
package export

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"passbook/extract"
)

// ErrFormat means a format name is none of json, csv or xlsx.
var ErrFormat = errors.New("unknown format: use json, csv or xlsx")

// Format is an output format: "json", "csv" or "xlsx".
type Format string

// The formats Passbook writes.
const (
	JSON Format = "json"
	CSV  Format = "csv"
	XLSX Format = "xlsx"
)

// ParseFormat maps a query value to a Format. An empty value means CSV, the
// API's default; case is ignored because "JSON" in a URL means nothing else.
// Anything else is ErrFormat.
func ParseFormat(s string) (Format, error) {
	switch f := Format(strings.ToLower(s)); f {
	case "":
		return CSV, nil
	case JSON, CSV, XLSX:
		return f, nil
	}
	return "", fmt.Errorf("format %q: %w", s, ErrFormat)
}

// ContentType is the media type of a download in format f, for the
// Content-Type header. An unknown format is application/octet-stream.
func (f Format) ContentType() string {
	switch f {
	case JSON:
		return "application/json"
	case CSV:
		// RFC 4180 registers text/csv; the charset is said because the
		// default for text/* would otherwise be US-ASCII.
		return "text/csv; charset=utf-8"
	case XLSX:
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	return "application/octet-stream"
}

// Ext is the file name extension of format f with its leading dot (".csv"),
// as path/filepath.Ext reports it, so that name+f.Ext() is a file name. An
// unknown format has none.
func (f Format) Ext() string {
	switch f {
	case JSON, CSV, XLSX:
		return "." + string(f)
	}
	return ""
}

// Write writes the document res in format f to w. fileID is the document's
// file_id (or, in the CLI, the input file's name); only the JSON and the
// XLSX summary sheet show it. A nil res is written as a document with no
// transactions.
func Write(w io.Writer, f Format, fileID string, res *extract.Result) error {
	return writeAs(w, f, fileID, res, false)
}

// WriteEdited is Write for a result whose transactions a person corrected:
// the JSON says statement.edited is true and the XLSX summary says so too;
// the other formats carry the corrected rows as they are.
func WriteEdited(w io.Writer, f Format, fileID string, res *extract.Result) error {
	return writeAs(w, f, fileID, res, true)
}

func writeAs(w io.Writer, f Format, fileID string, res *extract.Result, edited bool) error {
	if res == nil {
		res = &extract.Result{}
	}
	switch f {
	case JSON:
		return writeJSON(w, fileID, res, edited)
	case CSV:
		return writeCSV(w, res)
	case XLSX:
		return writeXLSX(w, fileID, res, edited)
	}
	return fmt.Errorf("write %q: %w", string(f), ErrFormat)
}

// columns are the transaction columns of every format, in the JSON's order.
var columns = []string{"date", "type", "description", "amountIn", "amountOut", "balance"}

// dateLayout is how dates are written as text.
const dateLayout = "2006-01-02"
