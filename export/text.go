package export

import "strings"

// cleanText makes statement text safe to put in a CSV or XLSX cell as data:
// valid UTF-8 (a broken byte becomes U+FFFD) with every line break a single
// "\n". The break matters for CSV: encoding/csv writes "\n" inside a quoted
// field as the record's CRLF and reads it back as "\n", but it drops a lone
// "\r" when writing CRLF records, so a "\r" would otherwise vanish.
func cleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return s
}

// neutralise keeps a spreadsheet from running a text cell as a formula.
//
// Following the OWASP CSV injection guidance, text starting with = + - @,
// a tab or a carriage return is prefixed with a single quote, which Excel
// and LibreOffice take as "this is text". A leading line feed is treated
// the same way, since cleanText turns a leading CR into one. Text that
// already starts with a single quote is prefixed too, so that the prefix is
// unambiguous: removing one leading quote always gives the
// original text back.
//
// It is for text cells only. Amounts are numbers and stay unprefixed: in CSV
// "-5.00" is data a spreadsheet reads as the number -5, not a formula.
func neutralise(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r', '\n', '\'':
		return "'" + s
	}
	return s
}

// textCell is statement text as it goes into a CSV or XLSX cell.
func textCell(s string) string {
	return neutralise(cleanText(s))
}
