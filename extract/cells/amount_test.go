package cells

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

type amountCase struct {
	name   string
	in     string
	comma  bool   // the document's decimal separator is a comma
	want   string // "" when the cell is not money
	marked bool
}

var amountCases = []amountCase{
	{name: "plain dot", in: "12.34", want: "12.34"},
	{name: "a sentence's full stop after the cents", in: "$1,973.05.", want: "1973.05"},
	{name: "a sentence's full stop after the cents, comma", in: "1.973,05.", comma: true, want: "1973.05"},
	{name: "a date is no amount with a full stop", in: "12.03.", want: ""},
	{name: "zero", in: "0.00", want: "0"},
	{name: "one decimal", in: "12.5", want: "12.5"},
	{name: "cents without their zero", in: ".26", want: "0.26"},
	{name: "cents without their zero, signed", in: "-.26", want: "-0.26", marked: true},
	{name: "cents without their zero, comma", in: ",26", comma: true, want: "0.26"},
	{name: "a lone point and three digits", in: ".266", want: ""},
	{name: "comma thousands", in: "1,234.56", want: "1234.56"},
	{name: "comma thousands millions", in: "12,345,678.90", want: "12345678.90"},
	{name: "dot thousands decimal comma", in: "1.234,56", comma: true, want: "1234.56"},
	{name: "dot thousands decimal comma in dot doc", in: "1.234,56", want: "1234.56"},
	{name: "space thousands", in: "1 234,56", comma: true, want: "1234.56"},
	{name: "nbsp thousands", in: "1\u00a0234,56", comma: true, want: "1234.56"},
	{name: "thin space thousands", in: "12\u2009345.00", want: "12345"},
	{name: "narrow nbsp thousands", in: "1\u202f234\u202f567,89", comma: true, want: "1234567.89"},
	{name: "apostrophe thousands", in: "1'234.56", want: "1234.56"},
	{name: "typographic apostrophe", in: "1’234.56", want: "1234.56"},
	{name: "indian lakh", in: "1,23,456.78", want: "123456.78"},
	{name: "indian crore", in: "12,34,56,789.00", want: "123456789"},
	{name: "dollar", in: "$1,234.56", want: "1234.56"},
	{name: "negative dollar", in: "-$1,234.56", want: "-1234.56", marked: true},
	{name: "dollar negative", in: "$-12.00", want: "-12", marked: true},
	{name: "iso prefix", in: "EUR 12,00", comma: true, want: "12"},
	{name: "iso suffix", in: "12.00 USD", want: "12"},
	{name: "iso glued", in: "GBP12.00", want: "12"},
	{name: "euro suffix", in: "12,00 €", comma: true, want: "12"},
	{name: "euro suffix nbsp", in: "1.234,50\u00a0€", comma: true, want: "1234.5"},
	{name: "pound", in: "£99.99", want: "99.99"},
	{name: "rupee", in: "₹1,23,456.00", want: "123456"},
	{name: "rs prefix", in: "Rs. 1,500.00", want: "1500"},
	{name: "chf apostrophe", in: "CHF 1'250.00", want: "1250"},
	{name: "leading minus", in: "-12.00", want: "-12", marked: true},
	{name: "unicode minus", in: "\u221212.00", want: "-12", marked: true},
	{name: "minus space", in: "- 12.00", want: "-12", marked: true},
	{name: "trailing minus", in: "12.00-", want: "-12", marked: true},
	{name: "trailing minus comma", in: "1.234,56-", comma: true, want: "-1234.56", marked: true},
	{name: "parentheses", in: "(12.00)", want: "-12", marked: true},
	{name: "parentheses currency", in: "($1,000.00)", want: "-1000", marked: true},
	{name: "plus comma", in: "+12,00", comma: true, want: "12", marked: true},
	{name: "DR suffix", in: "12.00 DR", want: "-12", marked: true},
	{name: "Dr suffix glued", in: "12.00Dr", want: "-12", marked: true},
	{name: "Dr dot suffix", in: "12.00 Dr.", want: "-12", marked: true},
	{name: "CR suffix", in: "12.00 CR", want: "12", marked: true},
	{name: "cr lower", in: "1,000.00 cr", want: "1000", marked: true},
	{name: "D suffix", in: "12.00 D", want: "-12", marked: true},
	{name: "C suffix", in: "12.00 C", want: "12", marked: true},
	{name: "parentheses DR", in: "(12.00) DR", want: "-12", marked: true},
	{name: "german soll", in: "1.234,56 S", comma: true, want: "-1234.56", marked: true},
	{name: "german haben", in: "12,00 H", comma: true, want: "12", marked: true},
	{name: "rupees suffix is not a marker", in: "12.00 Rs", want: "12"},
	{name: "grouped integer", in: "1,234", want: "1234"},
	{name: "currency integer", in: "$12", want: "12"},
	{name: "signed integer", in: "-12", want: "-12", marked: true},
	{name: "three decimals follow document", in: "1,234", comma: true, want: "1.234"},
	{name: "three decimals dot doc", in: "1.234", want: "1.234"},
	{name: "dot thousands in comma doc", in: "1.234", comma: true, want: "1234"},
	{name: "lone comma two decimals in dot doc", in: "12,50", want: "12.5"},

	{name: "empty", in: ""},
	{name: "spaces only", in: "   "},
	{name: "minus only", in: "-"},
	{name: "currency only", in: "EUR"},
	{name: "bare integer", in: "1234"},
	{name: "reference number", in: "123456789012"},
	{name: "long decimal reference", in: "12345678901234.00"},
	{name: "leading zero reference", in: "0042"},
	{name: "leading zero decimal", in: "007.50"},
	{name: "percentage", in: "4.5%"},
	{name: "percentage spaced", in: "4,50 %", comma: true},
	{name: "slash date", in: "12/02/2024"},
	{name: "dotted date", in: "12.02.2024"},
	{name: "iso date", in: "2024-02-12"},
	{name: "time", in: "14:30"},
	{name: "phone", in: "+44 20 7946 0958"},
	{name: "us phone", in: "(555) 123-4567"},
	{name: "misgrouped", in: "1,2345.00"},
	{name: "misgrouped short group", in: "1,23.00"},
	{name: "mixed grouping", in: "1,234 567.00"},
	{name: "two amounts", in: "100.00 50.00"},
	{name: "double separator", in: "1,,234.00"},
	{name: "leading separator, one digit", in: ".5"},
	{name: "trailing separator", in: "12."},
	{name: "four decimals", in: "1.2345"},
	{name: "double sign", in: "--12.00"},
	{name: "contradicting markers", in: "-12.00 CR"},
	{name: "paren and minus", in: "(12.00)-"},
	{name: "word", in: "TOTAL"},
	{name: "unknown code", in: "REF 123.00"},
	{name: "letters inside", in: "12a34.00"},
}

func TestParseAmount(t *testing.T) {
	for _, tc := range amountCases {
		t.Run(tc.name, func(t *testing.T) {
			v, marked, ok := ParseAmount(tc.in, tc.comma)
			if tc.want == "" {
				if ok {
					t.Fatalf("ParseAmount(%q, %v) = %s, ok; want not money", tc.in, tc.comma, v)
				}
				return
			}
			if !ok {
				t.Fatalf("ParseAmount(%q, %v) not ok; want %s", tc.in, tc.comma, tc.want)
			}
			want := decimal.RequireFromString(tc.want)
			if !v.Equal(want) {
				t.Errorf("ParseAmount(%q, %v) = %s; want %s", tc.in, tc.comma, v, want)
			}
			if marked != tc.marked {
				t.Errorf("ParseAmount(%q, %v) marked = %v; want %v", tc.in, tc.comma, marked, tc.marked)
			}
		})
	}
}

func TestGuessDecimalComma(t *testing.T) {
	tests := []struct {
		name  string
		cells []string
		want  bool
	}{
		{name: "us", cells: []string{"1,234.56", "12.00", "$5.10"}, want: false},
		{name: "german", cells: []string{"1.234,56", "12,00", "5,10 €"}, want: true},
		{name: "french spaces", cells: []string{"1 234,56", "12,00"}, want: true},
		{name: "swiss", cells: []string{"1'234.56", "12.00"}, want: false},
		{name: "indian", cells: []string{"1,23,456.78", "500.00"}, want: false},
		{name: "comma thousands only", cells: []string{"1,234,567", "2,000"}, want: false},
		{name: "dot thousands only", cells: []string{"1.234.567", "2.000.000"}, want: true},
		{name: "dates do not vote", cells: []string{"12.02.2024", "13.02.2024", "12.00"}, want: false},
		{name: "yearless dates do not vote", cells: []string{"1.6.", "2.6.", "3.6.", "39.616", "50.049", "284"}, want: true},
		{name: "one-digit day-month dates do not vote", cells: []string{"232.561", "443.984", "1.8", "3.8", "5.8", "-3.333"}, want: true},
		{name: "day-month figures do not vote", cells: []string{"8.12", "10.12", "17.12", "24.12", "25.12", "56.884", "6.609", "28.099", "593"}, want: true},
		{name: "majority comma", cells: []string{"12,00", "13,50", "2.000,00", "1.5"}, want: true},
		{name: "whole amounts grouped by dots", cells: []string{"8.766", "543", "7.113", "500"}, want: true},
		{name: "whole amounts grouped by commas", cells: []string{"8,766", "543", "7,113"}, want: false},
		{name: "decimals outvote groups", cells: []string{"8.766", "7.113", "12.50"}, want: false},
		{name: "a table of dot-grouped whole amounts under a summary with decimals", cells: []string{"¥268,998.00", "¥2.993", "¥1.464", "¥10.805", "¥264.541", "¥10.482", "¥262.508", "¥2.356", "¥5.454"}, want: true},
		{name: "a few dot groups among decimals", cells: []string{"1,234.56", "12.00", "8.766", "7.113", "2.500", "4.000"}, want: false},
		{name: "empty", cells: nil, want: false},
		{name: "no numbers", cells: []string{"Date", "Description"}, want: false},
		{name: "tie goes to dot", cells: []string{"12,00", "13.50"}, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := GuessDecimalComma(tc.cells); got != tc.want {
				t.Errorf("guessDecimalComma(%q) = %v; want %v", tc.cells, got, tc.want)
			}
		})
	}
}

// FuzzParseAmount checks that parsing never panics, that a parsed amount
// printed plainly (with a dot, or with a comma in a comma document) parses
// back to the same value, and that the sign agrees with the markers.
func FuzzParseAmount(f *testing.F) {
	for _, tc := range amountCases {
		f.Add(tc.in, tc.comma)
	}
	f.Fuzz(func(t *testing.T, s string, comma bool) {
		v, marked, ok := ParseAmount(s, comma)
		if !ok {
			if marked || !v.IsZero() {
				t.Fatalf("ParseAmount(%q) failed but returned %s, marked=%v", s, v, marked)
			}
			return
		}
		if v.IsNegative() && !marked {
			t.Fatalf("ParseAmount(%q) = %s: negative without a marker", s, v)
		}
		places := max(int32(2), -v.Exponent())
		plain := v.StringFixed(places)
		back, _, ok := ParseAmount(plain, false)
		if !ok || !back.Equal(v) {
			t.Fatalf("ParseAmount(%q) = %s; re-parsing %q gave %s, %v", s, v, plain, back, ok)
		}
		commaText := strings.Replace(plain, ".", ",", 1)
		back, _, ok = ParseAmount(commaText, true)
		if !ok || !back.Equal(v) {
			t.Fatalf("ParseAmount(%q) = %s; re-parsing %q (comma) gave %s, %v", s, v, commaText, back, ok)
		}
	})
}

func TestMisprintedCents(t *testing.T) {
	for _, tc := range []struct {
		s            string
		decimalComma bool
		want         string
		ok           bool
	}{
		{"2.853.82", true, "2853.82", true},  // cents after a grouping dot, among decimal commas
		{"1,234,56", false, "1234.56", true}, // and after a grouping comma among decimal points
		{"2.853.820", true, "2853820", true}, // whole groups: thousands
		{"2.853.82", false, "", false},       // among decimal points, two dots are no number
	} {
		v, _, ok := ParseAmount(tc.s, tc.decimalComma)
		if ok != tc.ok || ok && v.String() != tc.want {
			t.Errorf("ParseAmount(%q, %v) = %s, %v; want %s, %v", tc.s, tc.decimalComma, v, ok, tc.want, tc.ok)
		}
	}
}

// A Dr/Cr marker after a figure is any short indicator word of the
// lexicon: "DB", the Dutch "Af" and "Bij", besides DR, CR, S and H.
func TestDrCrMarksOfEveryLanguage(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		{"88.81 DB", "-88.81"},
		{"18'628 Bij", "18628"},
		{"12.50 Af", "-12.5"},
		{"206.96 S", "-206.96"},
		{"1,021 C", "1021"},
	} {
		v, marked, ok := ParseAmount(tc.s, false)
		if !ok || !marked || v.String() != tc.want {
			t.Errorf("ParseAmount(%q) = %s, marked %v, ok %v; want %s, marked", tc.s, v, marked, ok, tc.want)
		}
	}
}
