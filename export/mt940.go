package export

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"
	"golang.org/x/text/unicode/norm"
)

// SWIFT limits of the fields MT940 uses.
const (
	swiftLineLen   = 65 // characters per line of a field
	swiftInfoLines = 6  // lines of :86:
	swiftAmountLen = 15 // 15d: digits and the decimal comma
	swiftRefLen    = 16 // 16x
	swiftAcctLen   = 35 // 35x
)

// errSWIFTAmount means an amount has more digits than MT940's 15d holds.
var errSWIFTAmount = errors.New("amount too large for MT940")

// writeMT940 writes res as SWIFT MT940 customer statement messages, one
// per account, each ending with a line "-": :20: a reference, :25: the
// account, :28C: the statement number, :60F: the opening balance, per row
// a :61: statement line (value and entry date, C or D, the amount, type
// NMSC, no customer reference, and the FITID as the bank's reference)
// with its description in :86:, and :62F: the closing balance, which is
// the opening balance plus the lines (see closingBalance); when the
// statement shows another, a last :86: says so. Lines end in CRLF.
//
// Text is limited to SWIFT's X character set: accents are dropped (é is
// e, ß is ss), other characters become a similar allowed one or ".", and
// :86: holds 6 lines of 65 characters, so a longer description is cut.
func writeMT940(w io.Writer, opts Options, bs []block) error {
	bw := bufio.NewWriter(w)
	for i, b := range bs {
		ccy := b.currencyCode()
		start, end := b.startDate(opts.Created), b.endDate(opts.Created)
		// :25: names the account by its IBAN where the statement prints one.
		acct := truncate(swiftText(cmp.Or(b.iban, b.number)), swiftAcctLen)
		if strings.TrimSpace(acct) == "" {
			acct = "UNKNOWN"
		}
		open, err := swiftBalance(b.openingBalance(), start, ccy)
		if err != nil {
			return err
		}
		closing, err := swiftBalance(b.closingBalance(), end, ccy)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, ":20:PASSBOOK\r\n:25:%s\r\n:28C:%d/1\r\n:60F:%s\r\n", acct, i+1, open)
		for _, r := range b.rows {
			amt := signed(r.Transaction)
			mark := "C"
			if amt.Sign() < 0 {
				mark = "D"
			}
			a, err := swiftAmount(amt.Abs())
			if err != nil {
				return err
			}
			fmt.Fprintf(bw, ":61:%s%s%s%sNMSCNONREF//%s\r\n", r.Date.Format("060102"), r.Date.Format("0102"), mark, a, r.fitid)
			if lines := swiftLines(swiftText(oneLine(r.Description))); len(lines) > 0 {
				fmt.Fprintf(bw, ":86:%s\r\n", strings.Join(lines, "\r\n"))
			}
		}
		fmt.Fprintf(bw, ":62F:%s\r\n", closing)
		// The statement-level :86: (information to the account owner)
		// says what a statement that does not add up prints instead.
		if lines := swiftLines(swiftText(b.closingNote())); len(lines) > 0 {
			fmt.Fprintf(bw, ":86:%s\r\n", strings.Join(lines, "\r\n"))
		}
		bw.WriteString("-\r\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write mt940: %w", err)
	}
	return nil
}

// swiftBalance is a balance field's value: C or D, YYMMDD, the currency
// and the amount.
func swiftBalance(d decimal.Decimal, on time.Time, ccy string) (string, error) {
	mark := "C"
	if d.Sign() < 0 {
		mark = "D"
	}
	a, err := swiftAmount(d.Abs())
	if err != nil {
		return "", err
	}
	return mark + on.Format("060102") + ccy + a, nil
}

// swiftAmount is a non-negative amount as 15d: a decimal comma, two
// decimals, no thousands separator.
func swiftAmount(d decimal.Decimal) (string, error) {
	s := strings.Replace(d.StringFixed(2), ".", ",", 1)
	if len(s) > swiftAmountLen {
		return "", fmt.Errorf("write mt940: %s: %w", d.StringFixed(2), errSWIFTAmount)
	}
	return s, nil
}

// swiftReplacements are the characters outside SWIFT's X set with an
// allowed stand-in closer than ".".
var swiftReplacements = map[rune]string{
	'&': "+", '"': "'", '<': "(", '>': ")", '[': "(", ']': ")", '{': "(", '}': ")",
	'_': "-", '*': "X", '#': "NO.", '%': "PCT", '@': "(AT)", ';': ",", '!': ".", '=': "-",
	'ß': "ss", 'Æ': "AE", 'æ': "ae", 'Ø': "O", 'ø': "o", 'Œ': "OE", 'œ': "oe", 'Ł': "L", 'ł': "l",
	'Đ': "D", 'đ': "d", 'Þ': "TH", 'þ': "th", '€': "EUR", '£': "GBP", '$': "USD",
}

// swiftText is s in SWIFT's X character set (a-z A-Z 0-9 / - ? : ( ) . , '
// + and space): letters lose their accents, a few characters get a
// stand-in, anything else becomes ".".
func swiftText(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(oneLine(s)) {
		switch {
		case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/-?:().,'+ ", r)):
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// a combining accent, split off by NFD
		default:
			if s, ok := swiftReplacements[r]; ok {
				b.WriteString(s)
			} else {
				b.WriteByte('.')
			}
		}
	}
	return b.String()
}

// swiftLines cuts text into at most 6 lines of 65 characters for :86:. A
// line after the first may not begin with ":" or "-" (a reader would take
// it for a new field or the end of the message), so such a line starts
// earlier, at the run of ":" and "-" it is in; when the whole line is
// such a run, the next line's first character becomes ".". Joining the
// lines gives back the text, unless it was cut for length or held such a
// run: no statement text may start a field.
func swiftLines(s string) []string {
	var lines []string
	first := true
	for s != "" && len(lines) < swiftInfoLines {
		n := swiftLineLen
		if first {
			n -= len(":86:")
		}
		if n >= len(s) {
			lines = append(lines, s)
			break
		}
		cut := n
		for cut > 1 && (s[cut] == ':' || s[cut] == '-') {
			cut--
		}
		if s[cut] == ':' || s[cut] == '-' {
			// A line of only ":" and "-": nothing to move back.
			lines = append(lines, s[:n])
			s = "." + s[n+1:]
		} else {
			lines = append(lines, s[:cut])
			s = s[cut:]
		}
		first = false
	}
	return lines
}
