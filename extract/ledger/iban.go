package ledger

import (
	"math/big"
	"strings"
)

// IBAN is s, without its spaces and in capitals, when it is an IBAN
// (ISO 13616): two letters of a country, two check digits and 11 to 30
// letters and digits, whose mod-97 check holds. It is "" for anything
// else: a national account number, or an IBAN masked or misread.
func IBAN(s string) string {
	s = strings.ToUpper(strings.Join(strings.Fields(s), ""))
	if len(s) < 15 || len(s) > 34 {
		return ""
	}
	for i, r := range s {
		letter, digit := r >= 'A' && r <= 'Z', r >= '0' && r <= '9'
		switch {
		case i < 2 && !letter, i >= 2 && i < 4 && !digit, !letter && !digit:
			return ""
		}
	}
	var digits strings.Builder
	for _, r := range s[4:] + s[:4] {
		if r >= 'A' && r <= 'Z' {
			digits.WriteString(big.NewInt(int64(r - 'A' + 10)).String())
		} else {
			digits.WriteRune(r)
		}
	}
	n, ok := new(big.Int).SetString(digits.String(), 10)
	if !ok || new(big.Int).Mod(n, big.NewInt(97)).Int64() != 1 {
		return ""
	}
	return s
}
