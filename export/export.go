// Package export writes a converted statement to an io.Writer in the formats
// people import into spreadsheets and accounting software: JSON, CSV (with
// profiles for Xero, QuickBooks and continental Excel), XLSX, OFX 2 (XML),
// QFX and QBO (OFX 1.0.2 SGML for Quicken and QuickBooks), QIF, ISO 20022
// CAMT.053 and SWIFT MT940.
//
// Money is decimal text with exactly two decimals (a decimal comma where the
// profile asks for one), or a numeric cell with a two-decimal format in XLSX.
// In CSV, a text cell that a spreadsheet would run as a formula is
// neutralised with a leading single quote; in XLSX it keeps its text and gets
// the quote-prefix cell style, because statement text comes from documents
// other people wrote.
//
// The statement formats (OFX, QFX, QBO, QIF, CAMT.053, MT940) write one
// statement block per account when a document holds several, and give every
// row a stable id (see FITID) so that software that deduplicates by it never
// imports a row twice.
//
// It knows nothing of HTTP or SQL: the server and the CLI choose a Format and
// Options and hand Write a writer.
package export

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"passbook/extract/ledger"
)

// Errors of the options a caller passes.
var (
	// ErrFormat means a format name is none of the formats Passbook writes.
	ErrFormat = errors.New("unknown format: use json, csv, xlsx, ofx, qfx, qbo, qif, camt053 or mt940")
	// ErrProfile means a CSV profile is unknown, or given with a format other than csv.
	ErrProfile = errors.New("unknown profile: use xero, quickbooks or excel-eu, with format csv")
	// ErrIntuBID means an INTU.BID is not the digits Intuit assigns a bank.
	ErrIntuBID = errors.New("intu_bid must be 1 to 9 digits")
)

// Format is an output format, named as the download's format parameter.
type Format string

// The formats Passbook writes.
const (
	JSON    Format = "json"
	CSV     Format = "csv"
	XLSX    Format = "xlsx"
	OFX     Format = "ofx"     // OFX 2.1.1, XML
	QFX     Format = "qfx"     // OFX 1.0.2 SGML with INTU.BID, for Quicken
	QBO     Format = "qbo"     // OFX 1.0.2 SGML with INTU.BID, for QuickBooks
	QIF     Format = "qif"     // Quicken Interchange Format, dates month first
	CAMT053 Format = "camt053" // ISO 20022 camt.053.001.02 BkToCstmrStmt
	MT940   Format = "mt940"   // SWIFT MT940 customer statement
)

// Formats lists every format, in the order the documentation gives them.
var Formats = []Format{CSV, JSON, XLSX, OFX, QFX, QBO, QIF, CAMT053, MT940}

// ParseFormat maps a query value to a Format. An empty value means CSV, the
// API's default; case is ignored because "JSON" in a URL means nothing else.
// Anything else is ErrFormat.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(s))
	if f == "" {
		return CSV, nil
	}
	for _, known := range Formats {
		if f == known {
			return f, nil
		}
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
	case OFX:
		return "application/x-ofx"
	case QFX:
		return "application/vnd.intu.qfx"
	case QBO:
		return "application/vnd.intu.qbo"
	case QIF:
		return "application/qif"
	case CAMT053:
		return "application/xml"
	case MT940:
		// MT940 text is restricted to SWIFT's character set, all ASCII.
		return "text/plain; charset=us-ascii"
	}
	return "application/octet-stream"
}

// Ext is the file name extension of format f with its leading dot (".csv"),
// as path/filepath.Ext reports it, so that name+f.Ext() is a file name. An
// unknown format has none. CAMT.053 is XML; MT940 files are
// conventionally ".sta".
func (f Format) Ext() string {
	switch f {
	case JSON, CSV, XLSX, OFX, QFX, QBO, QIF:
		return "." + string(f)
	case CAMT053:
		return ".xml"
	case MT940:
		return ".sta"
	}
	return ""
}

// Profile is a CSV dialect for one importer. The zero Profile is the API's
// CSV, unchanged: the JSON's columns in the JSON's order.
type Profile string

// The CSV profiles.
const (
	// Xero is Xero's bank statement template: Date (day first), Amount
	// (signed), Payee, Description, Reference.
	Xero Profile = "xero"
	// QuickBooks is QuickBooks' three-column bank upload: Date (month
	// first), Description, Amount (signed).
	QuickBooks Profile = "quickbooks"
	// ExcelEU is for spreadsheets set up for continental Europe: ";"
	// separated, decimal comma, a UTF-8 byte order mark, readable headers,
	// a signed amount, the currency and the row's warnings.
	ExcelEU Profile = "excel-eu"
)

// Profiles lists every CSV profile, in the order the documentation gives them.
var Profiles = []Profile{Xero, QuickBooks, ExcelEU}

// ParseProfile maps a query value to a Profile; "" is the default CSV. Case
// is ignored. Anything else is ErrProfile.
func ParseProfile(s string) (Profile, error) {
	p := Profile(strings.ToLower(s))
	if p == "" {
		return "", nil
	}
	for _, known := range Profiles {
		if p == known {
			return p, nil
		}
	}
	return "", fmt.Errorf("profile %q: %w", s, ErrProfile)
}

// Options say what Write needs beyond the statement. The zero Options
// write the API's default output.
type Options struct {
	// FileID is the document's file_id (or, in the CLI, the input file's
	// name): the JSON's file_id, and the seed of the CAMT.053 message id.
	FileID string
	// OriginalName is the name the file was uploaded with; the XLSX
	// Statement sheet shows it.
	OriginalName string
	// Profile chooses a CSV dialect; only format csv takes one.
	Profile Profile
	// IntuBID is the Intuit bank id written as INTU.BID into QFX and QBO;
	// QuickBooks refuses a file without one it knows. Empty leaves it out.
	IntuBID string
	// Created is when the file is made, written where OFX and CAMT.053
	// require a server or creation time. Zero means now.
	Created time.Time
}

// Check reports whether opts suit format f: ErrProfile for a profile with
// a format other than csv, ErrIntuBID for an INTU.BID that is not 1 to 9
// digits. Write checks too; the server calls it to answer 400 before it
// loads anything.
func Check(f Format, opts Options) error {
	if opts.Profile != "" {
		if _, err := ParseProfile(string(opts.Profile)); err != nil {
			return err
		}
		if f != CSV {
			return fmt.Errorf("profile %q with format %q: %w", opts.Profile, f, ErrProfile)
		}
	}
	if b := opts.IntuBID; b != "" {
		if len(b) > 9 || strings.Trim(b, "0123456789") != "" {
			return fmt.Errorf("intu_bid %q: %w", b, ErrIntuBID)
		}
	}
	return nil
}

// Write writes the document res in format f to w. A nil res is written as a
// document with no transactions.
func Write(w io.Writer, f Format, opts Options, res *ledger.Result) error {
	return writeAs(w, f, opts, res, false)
}

// WriteEdited is Write for a result whose transactions a person corrected:
// the JSON says statement.edited is true and the XLSX summary says so too;
// the other formats carry the corrected rows as they are.
func WriteEdited(w io.Writer, f Format, opts Options, res *ledger.Result) error {
	return writeAs(w, f, opts, res, true)
}

func writeAs(w io.Writer, f Format, opts Options, res *ledger.Result, edited bool) error {
	if res == nil {
		res = &ledger.Result{}
	}
	if err := Check(f, opts); err != nil {
		return err
	}
	if opts.Created.IsZero() {
		opts.Created = time.Now()
	}
	opts.Created = opts.Created.UTC().Truncate(time.Second)
	switch f {
	case JSON:
		return writeJSON(w, opts.FileID, res, edited)
	case CSV:
		if opts.Profile != "" {
			return writeProfileCSV(w, opts.Profile, documentOrder(blocks(res)), false)
		}
		return writeCSV(w, res)
	case XLSX:
		return writeXLSX(w, opts, res, edited)
	case OFX:
		return writeOFX(w, ofxXML, opts, blocks(res))
	case QFX, QBO:
		return writeOFX(w, ofxSGML, opts, blocks(res))
	case QIF:
		return writeQIF(w, blocks(res))
	case CAMT053:
		return writeCAMT(w, opts, blocks(res))
	case MT940:
		return writeMT940(w, opts, blocks(res))
	}
	return fmt.Errorf("write %q: %w", string(f), ErrFormat)
}

// columns are the transaction columns of the API's CSV, in the JSON's order.
var columns = []string{"date", "type", "description", "amountIn", "amountOut", "balance"}

// dateLayout is how dates are written as text.
const dateLayout = "2006-01-02"
