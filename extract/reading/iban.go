package reading

import (
	"strings"
	"unicode"

	"passbook/extract/layout"
	"passbook/extract/ledger"
)

// ReadIBAN is the account's IBAN where the statement prints one (see
// ledger.IBAN for what passes as one): number itself, the account number
// the statement was read to hold, when it is an IBAN; else an IBAN
// printed on lines whose country-specific part holds number's digits (a
// national number beside its IBAN: "Kontonummer 0532013000" and "IBAN
// DE89 3704 0044 0532 0130 00", or the last digits of a masked number).
// An IBAN that does not pass its check (masked, or misread) is never
// taken, nor one that shares nothing with the account's number (a
// payee's, the bank's own).
func ReadIBAN(lines []*layout.Line, number string) string {
	if iban := ledger.IBAN(number); iban != "" {
		return iban
	}
	digits := longestDigits(number)
	if len(digits) < 4 {
		return ""
	}
	for _, l := range lines {
		words := ibanWords(l)
		for i := range words {
			if iban := ibanFrom(words[i:]); iban != "" && strings.Contains(iban[4:], digits) {
				return iban
			}
		}
	}
	return ""
}

// ibanWords are a line's words split at spaces and colons ("IBAN:DE89"),
// without the punctuation around them.
func ibanWords(l *layout.Line) []string {
	var out []string
	for _, w := range l.Words {
		for _, f := range strings.FieldsFunc(w.Text, func(r rune) bool { return unicode.IsSpace(r) || r == ':' }) {
			if f = strings.Trim(f, ",;.()[]"); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// ibanFrom is the longest IBAN that words start with: one word, or one
// printed in groups ("GB29 NWBK 6016 1331 9268 19"); "" when none.
func ibanFrom(words []string) string {
	head := words[0]
	if len(head) < 4 || !isUpperLetter(head[0]) || !isUpperLetter(head[1]) || !isDigit(head[2]) || !isDigit(head[3]) {
		return ""
	}
	best, s := "", ""
	for j, w := range words {
		if j > 0 && (len(w) > 4 || strings.ToUpper(w) != w) || len(s)+len(w) > 34 {
			break
		}
		s += w
		if v := ledger.IBAN(s); v != "" {
			best = v
		}
	}
	return best
}

// longestDigits is the longest run of digits in s, without leading
// zeros: what an account number shares with its IBAN.
func longestDigits(s string) string {
	best := ""
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' }) {
		if f = strings.TrimLeft(f, "0"); len(f) > len(best) {
			best = f
		}
	}
	return best
}

func isUpperLetter(b byte) bool { return b >= 'A' && b <= 'Z' }
func isDigit(b byte) bool       { return b >= '0' && b <= '9' }
