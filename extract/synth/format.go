package synth

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// fmtDate prints a date in the layout's form. Forms without a year rely on
// the printed period.
func fmtDate(form string, lx *lexicon, t time.Time) string {
	d, m, y := t.Day(), int(t.Month()), t.Year()
	switch form {
	case "date-mdy-slash":
		return fmt.Sprintf("%02d/%02d/%d", m, d, y)
	case "date-dmy-dot":
		return fmt.Sprintf("%02d.%02d.%d", d, m, y)
	case "date-iso":
		return t.Format(time.DateOnly)
	case "date-dd-mon-yyyy":
		return fmt.Sprintf("%02d-%s-%d", d, lx.monthsShort[m-1], y)
	case "date-d-mon-yyyy":
		return fmt.Sprintf("%d %s %d", d, lx.monthsShort[m-1], y)
	case "date-mon-d":
		return fmt.Sprintf("%s %d", lx.monthsShort[m-1], d)
	case "date-dmy-yy":
		return fmt.Sprintf("%02d/%02d/%02d", d, m, y%100)
	case "date-month-name":
		switch lx.code {
		case "en":
			return fmt.Sprintf("%s %d, %d", lx.months[m-1], d, y)
		case "de":
			return fmt.Sprintf("%d. %s %d", d, lx.months[m-1], y)
		}
		return fmt.Sprintf("%d %s %d", d, lx.months[m-1], y)
	}
	return fmt.Sprintf("%02d/%02d/%d", d, m, y)
}

// fmtPeriodDate prints a period bound: always with a year.
func fmtPeriodDate(form string, lx *lexicon, t time.Time) string {
	if form == "date-mon-d" {
		return fmtDate("date-month-name", lx, t)
	}
	return fmtDate(form, lx, t)
}

// numForm is how a number is written.
type numForm struct {
	name     string
	decimals int
}

// fmtAbs writes |v| with the form's grouping and decimal mark.
func (nf numForm) fmtAbs(v decimal.Decimal) string {
	s := v.Abs().StringFixed(int32(nf.decimals))
	intPart, frac, _ := strings.Cut(s, ".")
	thou, dec := ",", "."
	switch nf.name {
	case "num-dot-comma":
		thou, dec = ".", ","
	case "num-space-comma":
		thou, dec = " ", ","
	case "num-apos-dot":
		thou = "'"
	case "num-plain":
		thou = ""
	}
	var grouped string
	if nf.name == "num-indian" {
		grouped = groupIndian(intPart)
	} else {
		grouped = group(intPart, thou)
	}
	if nf.decimals == 0 {
		return grouped
	}
	return grouped + dec + frac
}

func group(digits, sep string) string {
	if sep == "" || len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	lead := len(digits) % 3
	if lead > 0 {
		b.WriteString(digits[:lead])
	}
	for i := lead; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

// groupIndian groups the last three digits, then pairs: 1,23,456.
func groupIndian(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	head, tail := digits[:len(digits)-3], digits[len(digits)-3:]
	var parts []string
	for len(head) > 2 {
		parts = append([]string{head[len(head)-2:]}, parts...)
		head = head[:len(head)-2]
	}
	if head != "" {
		parts = append([]string{head}, parts...)
	}
	return strings.Join(append(parts, tail), ",")
}

// money writes amounts and balances for one document (or its summary box).
type money struct {
	nf     numForm
	curPos string // "", cur-prefix, cur-suffix
	symbol string // printed before the number
	code   string // printed after it
	neg    string // neg-minus, neg-trailing, neg-parens, neg-dr
	drMark string // the debit mark for neg-dr
}

// plain writes a non-negative amount.
func (m money) plain(v decimal.Decimal) string {
	s := m.nf.fmtAbs(v)
	switch m.curPos {
	case "cur-prefix":
		return m.symbol + s
	case "cur-suffix":
		return s + " " + m.code
	}
	return s
}

// signed writes v with the layout's negative form.
func (m money) signed(v decimal.Decimal) string {
	if !v.IsNegative() {
		return m.plain(v)
	}
	p := m.plain(v)
	switch m.neg {
	case "neg-trailing":
		return p + "-"
	case "neg-parens":
		return "(" + p + ")"
	case "neg-dr":
		return p + " " + m.drMark
	}
	return "-" + p
}
