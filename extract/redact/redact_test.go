package redact_test

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"

	"passbook/extract/engine"
	"passbook/extract/ledger"
	"passbook/extract/redact"
	"passbook/extract/synth"
)

// read is the engine's reading, as the command line makes it: a page
// with no text layer is not recognised.
var read = engine.New().RedactReader()

// planted are the client's words a test statement prints: none may
// survive in a copy.
var planted = []string{
	"Josephine", "Quartermaine", // the holder
	"Wellington Crescent", "Bexhill", "TN39 4QP", // the address
	"GB82 WEST 1234 5698 7654 32", "GB82WEST12345698765432", "5698 7654", // the IBAN
	"4929 1234 5678 9012", "4929123456789012", "5678 9012", // the card
	"+44 20 7946 0958", "7946 0958", "79460958", // the telephone
	"Fortescue", "Marchbanks", // counterparties
}

// statementOpts shape a test statement.
type statementOpts struct {
	embedded bool   // an embedded TrueType font (a subset) instead of Helvetica
	holder   string // the holder's name
	compress bool
	images   bool // a logo at the top, a signature below the rows
}

// statement prints a one-page statement with a planted holder, address,
// IBAN, card number and telephone number, in its Info dictionary and XMP
// too, and a table whose balances prove every row.
func statement(t *testing.T, o statementOpts) []byte {
	t.Helper()
	pdf := fpdf.New("P", "pt", "A4", "")
	pdf.SetCompression(o.compress)
	font := "Helvetica"
	if o.embedded {
		ttf, err := os.ReadFile("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") // fonts-dejavu-core, make test-deps
		if err != nil {
			t.Fatal(err)
		}
		pdf.AddUTF8FontFromBytes("DejaVu", "", ttf)
		font = "DejaVu"
	}
	pdf.SetTitle("Statement for "+o.holder, true)
	pdf.SetAuthor(o.holder, true)
	pdf.SetSubject("GB82 WEST 1234 5698 7654 32", true)
	pdf.SetKeywords("Josephine Quartermaine 4929 1234 5678 9012", true)
	pdf.SetXmpMetadata([]byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>` + o.holder + `</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`))
	pdf.AddPage()
	pdf.SetFont(font, "", 9)
	if o.images {
		for i, name := range []string{"logo", "signature"} {
			black := image.NewGray(image.Rect(0, 0, 8+i, 8)) // two images, not one drawn twice
			var b bytes.Buffer
			if err := png.Encode(&b, black); err != nil {
				t.Fatal(err)
			}
			pdf.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(b.Bytes()))
		}
		pdf.ImageOptions("logo", 480, 20, 60, 30, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
		pdf.ImageOptions("signature", 40, 600, 120, 40, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	}
	text := func(x, y float64, s string) { pdf.Text(x, y, s) }
	right := func(x, y float64, s string) { pdf.Text(x-pdf.GetStringWidth(s), y, s) }
	text(40, 50, "Northgate Bank")
	text(40, 90, o.holder)
	text(40, 102, "27 Wellington Crescent")
	text(40, 114, "Bexhill-on-Sea TN39 4QP")
	text(330, 90, "IBAN: GB82 WEST 1234 5698 7654 32")
	text(330, 102, "Card number: 4929 1234 5678 9012")
	text(330, 114, "Telephone: +44 20 7946 0958")
	text(330, 126, "Statement period: 01/03/2025 to 31/03/2025")
	y := 170.0
	text(40, y, "Date")
	text(110, y, "Description")
	right(400, y, "Money out")
	right(470, y, "Money in")
	right(550, y, "Balance")
	rows := []struct {
		date, desc string
		out, in    string
	}{
		{"03/03/2025", "Card payment Fortescue Grocers", "45.20", ""},
		{"05/03/2025", "Salary Marchbanks Engineering", "", "2,310.00"},
		{"09/03/2025", "Direct debit Fortescue Energy 771204", "96.45", ""},
		{"14/03/2025", "Transfer to Q Marchbanks ref 55310298", "700.00", ""},
		{"18/03/2025", "Card payment Hollowell Pharmacy", "12.99", ""},
		{"22/03/2025", "Refund Fortescue Grocers", "", "8.50"},
		{"27/03/2025", "Standing order Wexcombe Lettings", "875.00", ""},
		{"30/03/2025", "Interest", "", "0.37"},
	}
	bal := decimal.RequireFromString("1204.18")
	y += 16
	text(110, y, "Opening balance")
	right(550, y, money(bal))
	for _, r := range rows {
		y += 14
		text(40, y, r.date)
		text(110, y, r.desc)
		if r.out != "" {
			right(400, y, r.out)
			bal = bal.Sub(decimal.RequireFromString(strings.ReplaceAll(r.out, ",", "")))
		} else {
			right(470, y, r.in)
			bal = bal.Add(decimal.RequireFromString(strings.ReplaceAll(r.in, ",", "")))
		}
		right(550, y, money(bal))
	}
	y += 16
	text(110, y, "Closing balance")
	right(550, y, money(bal))
	text(40, 780, "Northgate Bank plc. Questions? Call +44 20 7946 0958 quoting 4929 1234 5678 9012.")
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// money prints a figure as the statement does: 1,234.56.
func money(d decimal.Decimal) string {
	s := d.StringFixed(2)
	ip, fp, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range ip {
		if i > 0 && (len(ip)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String() + "." + fp
}

// inflated is every Flate stream of a PDF decoded, found by scanning its
// bytes as someone holding only the file would: no PDF library.
func inflated(data []byte) [][]byte {
	var out [][]byte
	re := regexp.MustCompile(`stream\r?\n`)
	for _, loc := range re.FindAllIndex(data, -1) {
		r, err := zlib.NewReader(bytes.NewReader(data[loc[1]:]))
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(r)
		out = append(out, b)
	}
	return out
}

// leaks are the planted strings found in a PDF's bytes, its inflated
// streams (as bytes and as UTF-16) or its text.
func leaks(t *testing.T, data []byte, strs []string) []string {
	t.Helper()
	return leaksRead(t, read, data, strs)
}

// leaksRead is leaks with a reader of one's own.
func leaksRead(t *testing.T, read redact.Reader, data []byte, strs []string) []string {
	t.Helper()
	r, err := read(data, "")
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, pg := range r.Doc.Pages {
		for _, w := range pg.Words {
			text.WriteString(w.Text + " ")
		}
	}
	hay := append([][]byte{data, []byte(text.String())}, inflated(data)...)
	var found []string
	for _, s := range strs {
		u16 := utf16(s)
		for i, h := range hay {
			if bytes.Contains(h, []byte(s)) || bytes.Contains(h, u16) {
				found = append(found, fmt.Sprintf("%q (in %s)", s, map[bool]string{true: "the bytes", false: "a stream"}[i == 0]+map[bool]string{true: " of the text", false: ""}[i == 1]))
				break
			}
		}
	}
	return found
}

func utf16(s string) []byte {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r>>8), byte(r))
	}
	return b
}

func TestCopyLeavesNothingPlanted(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts statementOpts
	}{
		{"helvetica", statementOpts{holder: "Josephine Quartermaine"}},
		{"helvetica compressed", statementOpts{holder: "Josephine Quartermaine", compress: true}},
		{"embedded subset", statementOpts{holder: "Josephine Quartermaine", embedded: true, compress: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := statement(t, tc.opts)
			if got := leaks(t, orig, planted); len(got) < len(planted)/2 {
				t.Fatalf("the original holds only %v of the planted strings: the test would prove nothing", got)
			}
			out, side, err := redact.Copy(orig, read, redact.Options{Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if got := leaks(t, out, planted); len(got) > 0 {
				t.Errorf("the copy holds %s", strings.Join(got, ", "))
			}
			if side.Rows != 8 || side.Reconciliation != ledger.ReconcileOK {
				t.Errorf("sidecar: %d rows, %q; want 8, ok", side.Rows, side.Reconciliation)
			}
			for _, k := range []string{"/Author", "/Title", "/Subject", "/Keywords", "/Metadata", "xmpmeta"} {
				if bytes.Contains(out, []byte(k)) {
					t.Errorf("the copy still holds %s", k)
				}
				for _, s := range inflated(out) {
					if bytes.Contains(s, []byte(k)) {
						t.Errorf("a stream of the copy still holds %s", k)
					}
				}
			}
		})
	}
}

// TestCopyReadsAsOriginal: the copy's rows are the original's, their
// amounts and balances times one factor (never 1) within the rounding
// of each figure, their dates, directions and boxes the same, and the
// balances prove as they did.
func TestCopyReadsAsOriginal(t *testing.T) {
	var docs [][]byte
	docs = append(docs, statement(t, statementOpts{holder: "Josephine Quartermaine", compress: true}))
	for _, seed := range []int64{3, 5, 9, 14} {
		s, err := synth.Generate(seed, synth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, s.PDF)
	}
	for i, doc := range docs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			o, err := read(doc, "")
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := redact.Copy(doc, read, redact.Options{Seed: uint64(100 + i)})
			if err != nil {
				t.Fatal(err)
			}
			c, err := read(out, "")
			if err != nil {
				t.Fatal(err)
			}
			ot, ct := o.Result.Transactions, c.Result.Transactions
			if len(ot) != len(ct) || len(ot) == 0 {
				t.Fatalf("the copy reads %d rows, the original %d", len(ct), len(ot))
			}
			if o.Result.Statement.Reconciliation.Status != c.Result.Statement.Reconciliation.Status {
				t.Errorf("status %q, want %q", c.Result.Statement.Reconciliation.Status, o.Result.Statement.Reconciliation.Status)
			}
			// The factor, from the largest amount; every amount must agree.
			var big, bigC decimal.Decimal
			for k := range ot {
				if a := amount(ot[k]); a.GreaterThan(big) {
					big, bigC = a, amount(ct[k])
				}
			}
			f := bigC.Div(big)
			if f.Sub(decimal.NewFromInt(1)).Abs().LessThan(decimal.RequireFromString("0.05")) {
				t.Fatalf("factor %s: the amounts were not changed", f)
			}
			changedDesc := 0
			for k := range ot {
				a, b := ot[k], ct[k]
				if !a.Date.Equal(b.Date) || a.Type() != b.Type() || a.Page != b.Page {
					t.Errorf("row %d: %s %s p%d, want %s %s p%d", k, b.Date.Format("2006-01-02"), b.Type(), b.Page, a.Date.Format("2006-01-02"), a.Type(), a.Page)
				}
				// Within a unit of the figure's last printed place, and the
				// factor's own rounding.
				want := amount(a).Mul(f)
				unit := decimal.New(1, min(amount(a).Exponent(), 0))
				if d := amount(b).Sub(want).Abs(); d.GreaterThan(unit.Add(amount(a).Mul(decimal.RequireFromString("0.002")))) {
					t.Errorf("row %d: amount %s, want about %s (%s times %s)", k, amount(b), want.StringFixed(2), amount(a), f.StringFixed(4))
				}
				for q := range 4 {
					if d := a.Box[q] - b.Box[q]; d > 1 || d < -1 {
						t.Errorf("row %d: box %v, want %v within a point", k, b.Box, a.Box)
						break
					}
				}
				if a.Description != b.Description {
					changedDesc++
				}
			}
			if changedDesc == 0 {
				t.Errorf("no description was replaced")
			}
		})
	}
}

func amount(t ledger.Transaction) decimal.Decimal {
	if t.AmountIn != nil {
		return *t.AmountIn
	}
	return *t.AmountOut
}

// TestCopyDropsEarlierRevision: a statement updated in place (an
// incremental update that replaces its page's content) holds its
// earlier revision's text in its bytes; the copy holds none of it.
func TestCopyDropsEarlierRevision(t *testing.T) {
	old := statement(t, statementOpts{holder: "Zebediah Winterbottom"})
	cur := statement(t, statementOpts{holder: "Josephine Quartermaine"})
	updated := incrementalUpdate(t, old, cur)
	r, err := read(updated, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Result.Statement.Reconciliation.Status != ledger.ReconcileOK || !bytes.Contains(updated, []byte("Winterbottom")) {
		t.Fatalf("the updated file should read as its last revision and still hold the first's text (status %q)", r.Result.Statement.Reconciliation.Status)
	}
	var text strings.Builder
	for _, w := range r.Doc.Pages[0].Words {
		text.WriteString(w.Text + " ")
	}
	if strings.Contains(text.String(), "Winterbottom") || !strings.Contains(text.String(), "Quartermaine") {
		t.Fatalf("the update did not replace the page: %s", text.String())
	}
	out, _, err := redact.Copy(updated, read, redact.Options{Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	if got := leaks(t, out, []string{"Zebediah", "Winterbottom"}); len(got) > 0 {
		t.Errorf("the copy holds the earlier revision's %s", strings.Join(got, ", "))
	}
	if n := bytes.Count(out, []byte("%%EOF")); n != 1 {
		t.Errorf("the copy has %d revisions, want 1", n)
	}
}

// incrementalUpdate appends to old, an uncompressed fpdf statement, an
// update that replaces its first page's content stream with cur's.
func incrementalUpdate(t *testing.T, old, cur []byte) []byte {
	t.Helper()
	content := func(doc []byte) (objNum int, stream []byte) {
		m := regexp.MustCompile(`(?s)\n(\d+) 0 obj\n<</Length (\d+)>>\nstream\n`).FindSubmatchIndex(doc)
		if m == nil {
			t.Fatal("no content stream found")
		}
		fmt.Sscan(string(doc[m[2]:m[3]]), &objNum)
		var n int
		fmt.Sscan(string(doc[m[4]:m[5]]), &n)
		return objNum, doc[m[1] : m[1]+n]
	}
	num, _ := content(old)
	_, body := content(cur)
	return appendUpdate(t, old, map[int]string{num: fmt.Sprintf("<</Length %d>>\nstream\n%s\nendstream", len(body), body)})
}

// appendUpdate appends to doc an incremental update that writes objs
// (each object's number and its body), with its own xref section.
func appendUpdate(t *testing.T, doc []byte, objs map[int]string) []byte {
	t.Helper()
	startxref := regexp.MustCompile(`startxref\s+(\d+)`).FindAllSubmatch(doc, -1)
	prev := string(startxref[len(startxref)-1][1])
	root := regexp.MustCompile(`/Root (\d+ \d+ R)`).FindSubmatch(doc)
	var size int
	fmt.Sscan(string(regexp.MustCompile(`/Size (\d+)`).FindSubmatch(doc)[1]), &size)
	var b bytes.Buffer
	b.Write(doc)
	offs := map[int]int{}
	for num, body := range objs {
		offs[num] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", num, body)
		size = max(size, num+1)
	}
	xref := b.Len()
	b.WriteString("xref\n0 1\n0000000000 65535 f \n")
	for num, off := range offs {
		fmt.Fprintf(&b, "%d 1\n%010d 00000 n \n", num, off)
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d /Root %s /Prev %s>>\nstartxref\n%d\n%%%%EOF\n", size, root[1], prev, xref)
	return b.Bytes()
}

// TestCopyRefusesWhatWouldLeak: a form XObject that a page's resources
// name but no page draws is not rewritten (nothing of it is read), yet
// a copy would carry it: the check finds the holder's name in it, and no
// copy is written.
func TestCopyRefusesWhatWouldLeak(t *testing.T) {
	doc := statement(t, statementOpts{holder: "Josephine Quartermaine"})
	// fpdf's page resources are object 2, with one font.
	font := regexp.MustCompile(`/Font <<\n(/\S+) (\d+ 0 R)`).FindSubmatch(doc)
	if font == nil || !bytes.Contains(doc, []byte("2 0 obj\n<<\n/ProcSet")) {
		t.Fatal("fpdf's resources are not where this test expects them")
	}
	form := fmt.Sprintf("BT %s 9 Tf 10 10 Td (Josephine Quartermaine) Tj ET", font[1])
	doc = appendUpdate(t, doc, map[int]string{
		2:  fmt.Sprintf("<</ProcSet [/PDF /Text] /Font <<%s %s>> /XObject <</Leak 90 0 R>>>>", font[1], font[2]),
		90: fmt.Sprintf("<</Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources 2 0 R /Length %d>>\nstream\n%s\nendstream", len(form), form),
	})
	out, _, err := redact.Copy(doc, read, redact.Options{Seed: 3})
	var re *redact.RefusedError
	if !errors.As(err, &re) || out != nil {
		t.Fatalf("got %d bytes and %v, want a refusal", len(out), err)
	}
	if !strings.Contains(re.Reason, "Quartermaine") {
		t.Errorf("the refusal %q does not name what would leak", re.Reason)
	}
}

// TestCopyPaintsImages: a picture drawn below the letterhead (a
// signature, a cheque) is painted over in the copy; the bank's logo at
// the top stays. Both are black squares in the original.
func TestCopyPaintsImages(t *testing.T) {
	doc := statement(t, statementOpts{holder: "Josephine Quartermaine", images: true})
	out, _, err := redact.Copy(doc, read, redact.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	ink := func(pdf []byte, x, y float64) uint8 {
		t.Helper()
		r, err := engine.New().RenderPage(pdf, "", 1, 595)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(r.PNG))
		if err != nil {
			t.Fatal(err)
		}
		s := float64(img.Bounds().Dx()) / r.Width
		g, _, _, _ := img.At(int(x*s), int(y*s)).RGBA()
		return uint8(g >> 8)
	}
	for _, c := range []struct {
		what           string
		x, y           float64
		origDark, dark bool
	}{{"the logo", 510, 35, true, true}, {"the signature", 100, 620, true, false}} {
		if got := ink(doc, c.x, c.y) < 128; got != c.origDark {
			t.Fatalf("%s in the original: dark %v, want %v", c.what, got, c.origDark)
		}
		if got := ink(out, c.x, c.y) < 128; got != c.dark {
			t.Errorf("%s in the copy: dark %v, want %v", c.what, got, c.dark)
		}
	}
}

// TestCopyShiftsDates: with ShiftWeeks every date moves by that many
// weeks, in its own style, and the rows read on their new dates.
func TestCopyShiftsDates(t *testing.T) {
	doc := statement(t, statementOpts{holder: "Josephine Quartermaine"})
	o, err := read(doc, "")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := redact.Copy(doc, read, redact.Options{Seed: 9, ShiftWeeks: -3})
	if err != nil {
		t.Fatal(err)
	}
	c, err := read(out, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, ot := range o.Result.Transactions {
		if want := ot.Date.AddDate(0, 0, -21); !c.Result.Transactions[i].Date.Equal(want) {
			t.Errorf("row %d: %s, want %s", i, c.Result.Transactions[i].Date.Format("2006-01-02"), want.Format("2006-01-02"))
		}
	}
	var text strings.Builder
	for _, w := range c.Doc.Pages[0].Words {
		text.WriteString(w.Text + " ")
	}
	if !strings.Contains(text.String(), "08/02/2025 to 10/03/2025") {
		t.Errorf("the period line was not moved in its style: %s", text.String())
	}
}
