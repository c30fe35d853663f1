package extract

import (
	"strings"
	"testing"

	"passbook/extract/layout"
	"passbook/extract/source"
	"passbook/extract/tables"
)

// partiesPage lays out text lines on an A4 page, a word at a time: each
// line is "x y size text".
func partiesPage(lines ...string) source.Page {
	pg := source.Page{Number: 1, Width: 595, Height: 842}
	for _, l := range lines {
		var x, y, size float64
		var text string
		f := strings.SplitN(l, " ", 4)
		x, y, size, text = num(f[0]), num(f[1]), num(f[2]), f[3]
		for _, w := range strings.Fields(text) {
			width := 0.5 * size * float64(len([]rune(w)))
			pg.Words = append(pg.Words, source.Word{Text: w, X0: x, Y0: y, X1: x + width, Y1: y + size})
			x += width + 0.3*size
		}
	}
	return pg
}

func num(s string) float64 {
	var v float64
	for _, r := range s {
		v = v*10 + float64(r-'0')
	}
	return v
}

// TestReadParties names the bank and holder from what a page prints and
// what its metadata says, and only from that.
func TestReadParties(t *testing.T) {
	letter := []string{
		"40 40 18 Harbour Mutual",
		"40 62 9 1 Quay Street, Port 4401",
		"300 62 11 Statement of account",
		"40 110 10 Jane Q. Public",
		"40 122 10 7 Elm Road",
		"40 134 10 Springfield 12345",
		"300 110 10 Account: 12-3456",
		"40 200 10 Date Description Amount Balance",
		"40 214 10 01/02/2024 Coffee 3.20 96.80",
	}
	for _, c := range []struct {
		name         string
		meta         source.Meta
		lines        []string
		bank, holder string
	}{
		{"letterhead and address block", source.Meta{Creator: "PDFlib 9.2", Producer: "PDFlib 9.2"}, letter, "Harbour Mutual", "Jane Q. Public"},
		{"the author printed on the page", source.Meta{Author: "Quay Street", Title: "Statement"},
			append([]string{"40 760 8 Quay Street is a trading name"}, letter[1:]...), "Quay Street", "Jane Q. Public"},
		{"software is not printed", source.Meta{Author: "Report Writer Pro"},
			append([]string{"40 40 10 BIC: HARBGB2LXXX", "40 52 10 IBAN GB29 NWBK 6016 1331 9268 19"}, letter[3:]...), "BIC HARBGB2LXXX", "Jane Q. Public"},
		{"a BIC whose country is no country", source.Meta{}, []string{"40 40 10 SWIFT HARBJJ2L", "40 52 10 BIC HARBQQ2L", "40 200 10 Date Description Amount Balance"}, "", ""},
		{"a title is no bank", source.Meta{}, []string{"40 40 18 Kontoauszug", "40 200 10 Datum Text Betrag Saldo", "40 214 10 Datum Text Betrag Saldo"}, "", ""},
		{"an address block of the bank's own", source.Meta{}, []string{"40 40 18 Harbour Mutual", "40 62 18 1 Quay Street",
			"40 200 10 Date Description Amount Balance", "40 214 10 01/02/2024 Coffee 3.20 96.80", "40 228 10 02/02/2024 Tea 1.20 95.60"}, "Harbour Mutual", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			pg := partiesPage(c.lines...)
			lines := layout.GroupLines(pg, 0)
			bank, holder := tables.ReadParties(c.meta, lines, lines, []source.Page{pg})
			if bank != c.bank || holder != c.holder {
				t.Errorf("got bank %q holder %q, want %q and %q", bank, holder, c.bank, c.holder)
			}
		})
	}
}
