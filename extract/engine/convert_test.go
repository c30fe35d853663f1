package engine

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/ocr"
	"passbook/extract/source"

	"github.com/go-pdf/fpdf"
)

func TestConvertPDF(t *testing.T) {
	data, closing := statementPDF(t, 2, "")
	res, err := New().Convert(data, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.PageCount != 2 || len(res.Transactions) != 70 {
		t.Fatalf("pages %d transactions %d, want 2 and 70", res.PageCount, len(res.Transactions))
	}
	if got := res.Transactions[69].Balance.StringFixed(2); got != closing {
		t.Errorf("last balance = %s, want %s", got, closing)
	}
	if res.Statement.Reconciliation.Status != ledger.ReconcileOK {
		t.Errorf("reconciliation = %+v", res.Statement.Reconciliation)
	}
	if got := res.Transactions[2].Description; got != "PAYEE NUMBER 3 CARD 4921 XXXX 0021" {
		t.Errorf("wrapped description = %q", got)
	}
	// The integrity report, its file read beside the words: a profile,
	// no sign; --explain ends with it.
	if in := res.Integrity; in == nil || in.Profile == nil || !strings.Contains(in.Profile.Producer, "FPDF") || !strings.HasPrefix(in.Summary, "No sign of alteration found") {
		t.Errorf("integrity = %+v", res.Integrity)
	}
	var explain bytes.Buffer
	if _, err := New().Convert(data, extract.Options{Explain: &explain}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(explain.String(), "\nintegrity: No sign of alteration found") {
		t.Errorf("--explain has no integrity line:\n%s", explain.String())
	}
}

func TestConvertErrors(t *testing.T) {
	locked, _ := statementPDF(t, 1, "secret")
	cases := []struct {
		name string
		data []byte
		pw   string
		want error
	}{
		{"not a document", []byte("hello, world"), "", source.ErrUnsupported},
		{"empty", nil, "", source.ErrUnsupported},
		{"broken pdf", []byte("%PDF-1.7\n1 0 obj <<>> garbage"), "", source.ErrCorrupt},
		{"no password", locked, "", source.ErrPassword},
		{"wrong password", locked, "nope", source.ErrPassword},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New().Convert(c.data, extract.Options{Password: c.pw})
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
		})
	}
	res, err := New().Convert(locked, extract.Options{Password: "secret"})
	if err != nil || len(res.Transactions) != 35 {
		t.Fatalf("with the password: err %v, want 35 transactions", err)
	}
	if in := res.Integrity; in == nil || in.Profile == nil || strings.Contains(in.Summary, "could not be read") {
		t.Errorf("integrity of the encrypted file = %+v", res.Integrity)
	}
}

func TestProbe(t *testing.T) {
	data, _ := statementPDF(t, 3, "")
	info, err := New().Probe(data, "")
	if err != nil || info.Kind != "pdf" || info.PageCount != 3 {
		t.Errorf("Probe = %+v, %v; want pdf with 3 pages", info, err)
	}
}

// A page with no text layer that recognition fails on does not fail the
// document when it is nearly blank: the other pages are read and a warning
// names the page. A page full of ink that fails still fails the document.
func TestConvertOCRFailsOnBlankPage(t *testing.T) {
	eng := New()
	eng.ocrPage = func(image.Image, float64, int) (source.Page, error) {
		return source.Page{}, errors.New("tesseract exploded")
	}

	build := func(ink float64) []byte {
		pdf := fpdf.New("P", "pt", "Letter", "")
		pdf.SetFont("Helvetica", "", 9)
		pdf.AddPage()
		pdf.Text(40, 50, "Statement period 01/01/2024 to 31/01/2024")
		pdf.Text(40, 80, "Date")
		pdf.Text(100, 80, "Description")
		pdf.Text(330, 80, "Amount")
		pdf.Text(420, 80, "Balance")
		pdf.Text(40, 96, "Opening balance")
		pdf.Text(420, 96, "100.00")
		pdf.Text(40, 110, "02/01/2024")
		pdf.Text(100, 110, "SHOP")
		pdf.Text(330, 110, "-20.00")
		pdf.Text(420, 110, "80.00")
		pdf.AddPage()
		pdf.Text(300, 750, "2")
		if ink > 0 {
			pdf.Rect(40, 40, ink, ink, "F")
		}
		var buf bytes.Buffer
		if err := pdf.Output(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	// A page whose only ink is its little text is read from its text
	// layer: recognition is never asked.
	res, err := eng.Convert(build(0), extract.Options{})
	if err != nil {
		t.Fatalf("Convert: %v", err)
	}
	if len(res.Transactions) != 1 || res.PageCount != 2 || len(res.Statement.Warnings) != 0 {
		t.Errorf("got %d transactions on %d pages, warnings %q; want 1 on 2, none", len(res.Transactions), res.PageCount, res.Statement.Warnings)
	}
	// A nearly blank page with a mark besides its text is recognised; its
	// recognition failing leaves its text layer and a warning.
	res, err = eng.Convert(build(40), extract.Options{})
	if err != nil {
		t.Fatalf("Convert: %v", err)
	}
	if len(res.Transactions) != 1 || len(res.Statement.Warnings) != 1 || !strings.Contains(res.Statement.Warnings[0], "page 2") {
		t.Errorf("got %d transactions, warnings %q; want 1, one naming page 2", len(res.Transactions), res.Statement.Warnings)
	}
	if _, err := eng.Convert(build(500), extract.Options{}); err == nil || !strings.Contains(err.Error(), "tesseract exploded") {
		t.Errorf("inked page: err = %v, want the OCR error", err)
	}
}

func TestRenderPage(t *testing.T) {
	data, _ := statementPDF(t, 2, "pw")
	out, err := New().RenderPage(data, "pw", 2, 600)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out.PNG))
	if err != nil {
		t.Fatal(err)
	}
	// Letter is 612x792 points: 600 pixels wide is about 776 high.
	if b := img.Bounds(); b.Dx() != 600 || b.Dy() < 770 || b.Dy() > 780 {
		t.Errorf("rendered %v, want 600 wide and about 776 high", b)
	}
	if out.Width != 612 || out.Height != 792 {
		t.Errorf("page size %g x %g pt, want Letter's 612 x 792", out.Width, out.Height)
	}
	if out, err := New().RenderPage(data, "pw", 1, 0); err != nil {
		t.Errorf("default width: %v", err)
	} else if cfg, err := png.DecodeConfig(bytes.NewReader(out.PNG)); err != nil || cfg.Width != source.DefaultRenderWidth {
		t.Errorf("default width rendered %d px, %v; want %d", cfg.Width, err, source.DefaultRenderWidth)
	}
	scan := encodeGrayPNG(t, 300, 400)
	if out, err := New().RenderPage(scan, "", 1, 150); err != nil {
		t.Errorf("image page: %v", err)
	} else if cfg, err := png.DecodeConfig(bytes.NewReader(out.PNG)); err != nil || cfg.Width != 150 || cfg.Height != 200 {
		t.Errorf("image page rendered %dx%d, %v; want 150x200", cfg.Width, cfg.Height, err)
	} else if w, h := ocr.PageSize(300, 400); out.Width != w || out.Height != h || w <= 0 {
		t.Errorf("image page size %g x %g pt, want %g x %g as recognition reads it", out.Width, out.Height, w, h)
	}
	for _, c := range []struct {
		name        string
		data        []byte
		pw          string
		page, width int
		want        error
	}{
		{"no such page", data, "pw", 3, 600, source.ErrNoPage},
		{"page 0", data, "pw", 0, 600, source.ErrNoPage},
		{"too wide", data, "pw", 1, 10000, source.ErrNoPage},
		{"no password", data, "", 1, 600, source.ErrPassword},
		{"not a document", []byte("hello"), "", 1, 600, source.ErrUnsupported},
		{"image page 2", scan, "", 2, 150, source.ErrNoPage},
	} {
		if _, err := New().RenderPage(c.data, c.pw, c.page, c.width); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

func encodeGrayPNG(t *testing.T, w, h int) []byte {
	g := image.NewGray(image.Rect(0, 0, w, h))
	var buf bytes.Buffer
	if err := png.Encode(&buf, g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
