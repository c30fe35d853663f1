package redact_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"

	"passbook/extract/ledger"
	"passbook/extract/redact"
)

// table is a one-page statement for a test to print: its rows' texts as
// printed, the figures right-aligned in their columns.
type table struct {
	embedded bool   // a subset of DejaVu Sans, holding only what is printed; else Helvetica
	glyphs   bool   // each figure drawn a character at a time, placed by its widths (Helvetica)
	header   string // a line under the holder's name
	period   string // the statement period line
	opening  string
	closing  string
	rows     []tableRow
}

type tableRow struct{ date, desc, out, in, balance string }

// print draws the statement.
func (tb table) print(t *testing.T) []byte {
	t.Helper()
	pdf := fpdf.New("P", "pt", "A4", "")
	pdf.SetCompression(false)
	tr := func(s string) string { return s }
	if tb.embedded {
		ttf, err := os.ReadFile("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") // fonts-dejavu-core, make test-deps
		if err != nil {
			t.Fatal(err)
		}
		pdf.AddUTF8FontFromBytes("DejaVu", "", ttf)
		pdf.AddPage()
		pdf.SetFont("DejaVu", "", 9)
	} else {
		tr = pdf.UnicodeTranslatorFromDescriptor("") // cp1252: the right quote, accents
		pdf.AddPage()
		pdf.SetFont("Helvetica", "", 9)
	}
	text := func(x, y float64, s string) { pdf.Text(x, y, tr(s)) }
	right := func(x, y float64, s string) {
		s = tr(s)
		x -= pdf.GetStringWidth(s)
		if !tb.glyphs {
			pdf.Text(x, y, s)
			return
		}
		for i := range len(s) { // bytes: the translated string is cp1252
			pdf.Text(x, y, s[i:i+1])
			x += pdf.GetStringWidth(s[i : i+1])
		}
	}
	text(40, 50, "Northgate Bank")
	text(40, 90, "Josephine Quartermaine")
	text(40, 102, tb.header)
	text(330, 102, tb.period)
	y := 170.0
	text(40, y, "Date")
	text(130, y, "Description")
	right(400, y, "Money out")
	right(470, y, "Money in")
	right(550, y, "Balance")
	y += 16
	text(130, y, "Opening balance")
	right(550, y, tb.opening)
	for _, r := range tb.rows {
		y += 14
		text(40, y, r.date)
		text(130, y, r.desc)
		if r.out != "" {
			right(400, y, r.out)
		} else {
			right(470, y, r.in)
		}
		right(550, y, r.balance)
	}
	y += 16
	text(130, y, "Closing balance")
	right(550, y, tb.closing)
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// figureStyle is how a generated statement prints its figures.
type figureStyle struct {
	group, mark string // thousands separator and decimal mark
	trimZeros   bool   // "1935.3", "13": the zeros after the mark left off
	glyphs      bool   // each character drawn on its own, placed by its width
	header      string // a line under the holder's name
}

// styledStatement prints a one-page statement whose balances prove
// every row, its figures in the given style.
func styledStatement(t *testing.T, st figureStyle) []byte {
	t.Helper()
	fig := func(d decimal.Decimal) string {
		ip, fp, _ := strings.Cut(d.StringFixed(2), ".")
		if st.trimZeros {
			fp = strings.TrimRight(fp, "0")
		}
		var b strings.Builder
		for i, r := range ip {
			if i > 0 && (len(ip)-i)%3 == 0 {
				b.WriteString(st.group)
			}
			b.WriteRune(r)
		}
		if fp != "" {
			b.WriteString(st.mark + fp)
		}
		return b.String()
	}
	tb := table{glyphs: st.glyphs, header: st.header, period: "Statement period: 01.03.2025 to 31.03.2025"}
	bal := decimal.RequireFromString("11204.18")
	tb.opening = fig(bal)
	for _, r := range []struct{ date, desc, out, in string }{
		{"03.03.2025", "Card payment Fortescue Grocers", "45.20", ""},
		{"05.03.2025", "Salary Marchbanks Engineering", "", "1935.30"},
		{"09.03.2025", "Direct debit Fortescue Energy", "13.00", ""},
		{"14.03.2025", "Transfer to Q Marchbanks", "1700.00", ""},
		{"18.03.2025", "Card payment Hollowell Pharmacy", "12.99", ""},
		{"22.03.2025", "Refund Fortescue Grocers", "", "8.50"},
		{"30.03.2025", "Interest", "", "0.37"},
	} {
		row := tableRow{date: r.date, desc: r.desc}
		if r.out != "" {
			a := decimal.RequireFromString(r.out)
			row.out, bal = fig(a), bal.Sub(a)
		} else {
			a := decimal.RequireFromString(r.in)
			row.in, bal = fig(a), bal.Add(a)
		}
		row.balance = fig(bal)
		tb.rows = append(tb.rows, row)
	}
	tb.closing = fig(bal)
	return tb.print(t)
}

// words is a reading's text, a word a line.
func words(r redact.Reading) string {
	var b strings.Builder
	for _, pg := range r.Doc.Pages {
		for _, w := range pg.Words {
			b.WriteString(w.Text + "\n")
		}
	}
	return b.String()
}

// TestCopyFiguresAsPrinted: figures keep reading as figures, times the
// factor, however they are printed: a character at a time with Swiss
// apostrophes (a core font's right quote is measured by its WinAnsi
// code, and the new digits are set side by side from the right edge,
// so no gap opens inside a figure), and with the zeros after the mark
// left off ("1935.3", "13", printed with cents where the new value needs
// them). A date's weekday stays; a whole number grouped like an amount
// that is no figure of the reading (part of an account number) has its
// digits replaced, not scaled: its length stays.
func TestCopyFiguresAsPrinted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		style figureStyle
		kept  []string // words the copy must still print
	}{
		{"swiss glyph by glyph", figureStyle{group: "’", mark: ".", glyphs: true, header: "Printed on Tuesday, 01.04.2025"}, []string{"Tuesday,"}},
		{"zeros left off", figureStyle{mark: ".", trimZeros: true, header: "Account 8327-9, 914 510 655-7"}, nil},
		{"zeros left off glyph by glyph", figureStyle{mark: ".", trimZeros: true, glyphs: true, header: "Account 8327-9, 914 510 655-7"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := styledStatement(t, tc.style)
			o, err := read(doc, "")
			if err != nil {
				t.Fatal(err)
			}
			if n, st := len(o.Result.Transactions), o.Result.Statement.Reconciliation.Status; n != 7 || st != ledger.ReconcileOK {
				t.Fatalf("the original reads %d rows, %q (%s); want 7, ok: the test would prove nothing", n, st, o.Result.Statement.Reconciliation.Message)
			}
			for seed := uint64(1); seed <= 4; seed++ {
				out, side, err := redact.Copy(doc, read, redact.Options{Seed: seed})
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if side.Rows != 7 || side.Reconciliation != ledger.ReconcileOK {
					t.Errorf("seed %d: sidecar %d rows, %q; want 7, ok", seed, side.Rows, side.Reconciliation)
				}
				c, err := read(out, "")
				if err != nil {
					t.Fatal(err)
				}
				text := words(c)
				for _, k := range tc.kept {
					if !strings.Contains(text, k+"\n") {
						t.Errorf("seed %d: the copy no longer prints %q: %q", seed, k, text)
					}
				}
				if strings.Contains(tc.style.header, "914 510") {
					i := strings.Index(text, "8327-9,\n")
					if i >= 0 {
						t.Errorf("seed %d: the account number is still printed", seed)
					}
					// The account's groups, in the copy: as many digits each.
					var acct []string
					for _, pg := range c.Doc.Pages {
						for _, w := range pg.Words {
							if w.Y0 > 92 && w.Y1 < 106 && w.X0 > 70 && w.X1 < 300 {
								acct = append(acct, w.Text)
							}
						}
					}
					if got := strings.Join(acct, " "); len(got) != len("8327-9, 914 510 655-7") || got == "8327-9, 914 510 655-7" {
						t.Errorf("seed %d: the account number reads %q in the copy: want its digits replaced, its shape kept", seed, got)
					}
				}
			}
		})
	}
}

// TestCopyFiguresFontLacksDigits: a statement whose embedded font is a
// subset holding only the digits it printed (0 to 4 here) is copied
// all the same: a figure the font cannot draw times the factor is drawn
// in a standard font (Helvetica), sized so that its box on the page is
// the figure's, and the copy reads as the original.
func TestCopyFiguresFontLacksDigits(t *testing.T) {
	doc := table{embedded: true, period: "Statement period: 01/03/2024 to 31/03/2024", opening: "1,000.00", closing: "4,002.22",
		rows: []tableRow{
			{"02/03/2024", "Salary Marchbanks Engineering", "", "4,012.00", "5,012.00"},
			{"04/03/2024", "Card payment Fortescue Grocers", "10.00", "", "5,002.00"},
			{"12/03/2024", "Transfer to Q Marchbanks", "1,000.00", "", "4,002.00"},
			{"21/03/2024", "Interest", "", "0.22", "4,002.22"},
		}}.print(t)
	o, err := read(doc, "")
	if err != nil {
		t.Fatal(err)
	}
	if n, st := len(o.Result.Transactions), o.Result.Statement.Reconciliation.Status; n != 4 || st != ledger.ReconcileOK {
		t.Fatalf("the original reads %d rows, %q; want 4, ok: the test would prove nothing", n, st)
	}
	for seed := uint64(1); seed <= 4; seed++ {
		out, side, err := redact.Copy(doc, read, redact.Options{Seed: seed})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if side.Rows != 4 || side.Reconciliation != ledger.ReconcileOK {
			t.Errorf("seed %d: sidecar %d rows, %q; want 4, ok", seed, side.Rows, side.Reconciliation)
		}
		if !bytes.Contains(out, []byte("/Helvetica")) {
			t.Errorf("seed %d: no figure was drawn in a standard font: the test proves nothing", seed)
		}
	}
}
