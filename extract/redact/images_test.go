package redact_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"image"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/go-pdf/fpdf"
	"github.com/shopspring/decimal"

	"passbook/extract/engine"
	"passbook/extract/redact"
	"passbook/extract/synth"
)

// scans are the test statement rasterised as a scanned PDF (a page
// image at 200 DPI) and as a phone photo (synth.Photo: the page on a
// desk, in perspective, unevenly lit, JPEG).
func scans(t *testing.T) map[string][]byte {
	t.Helper()
	doc := statement(t, statementOpts{holder: "Josephine Quartermaine"})
	page, err := engine.New().RenderPage(doc, "", 1, 1654) // 200 DPI on A4
	if err != nil {
		t.Fatal(err)
	}
	scan := fpdf.New("P", "pt", "A4", "")
	scan.AddPage()
	scan.RegisterImageOptionsReader("page", fpdf.ImageOptions{ImageType: "PNG"}, bytes.NewReader(page.PNG))
	scan.ImageOptions("page", 0, 0, 595.28, 841.89, false, fpdf.ImageOptions{ImageType: "PNG"}, 0, "")
	var b bytes.Buffer
	if err := scan.Output(&b); err != nil {
		t.Fatal(err)
	}
	// A phone photographs an A4 page at roughly 200-300 DPI.
	pages, err := synth.RenderPages(doc, 240)
	if err != nil {
		t.Fatal(err)
	}
	photo, err := synth.Photo(rand.New(rand.NewPCG(1, 2)), pages[0].Img)
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"scanned PDF": b.Bytes(), "photo": photo}
}

// TestCopyScans: a scan's and a photo's copy, recognised again, hold
// none of the planted holder, address, IBAN, card or telephone number,
// in their text or their bytes; they read as the original, amounts and
// balances times one factor (never 1), dates and directions the same;
// and the sidecar says the copy is less faithful.
func TestCopyScans(t *testing.T) {
	for name, data := range scans(t) {
		t.Run(name, func(t *testing.T) {
			// Each reading is a recognition: the original's and the
			// copy's are made once and kept.
			read := memoRead(read)
			o, err := read(data, "")
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d bytes, %d pages, %d words, %d rows", len(data), len(o.Doc.Pages), len(o.Doc.Pages[0].Words), len(o.Result.Transactions))
			if got := leaksRead(t, read, data, planted); len(got) < len(planted)/2 {
				t.Fatalf("recognition finds only %v of the planted strings in the original: the test would prove nothing", got)
			}
			// A copy is refused when its redrawn words re-read in doubt,
			// and another draw may re-read whole: a user tries again. One
			// of a few draws is written; every refusal says why.
			var out []byte
			var side redact.Sidecar
			for seed := uint64(11); out == nil && seed < 15; seed++ {
				if out, side, err = redact.Copy(data, read, redact.Options{Seed: seed}); err != nil {
					t.Logf("draw %d refused: %v", seed, err)
					out = nil
				}
			}
			if out == nil {
				t.Fatal("no draw of four was copied")
			}
			if got := leaksRead(t, read, out, planted); len(got) > 0 {
				t.Errorf("the copy holds %s", strings.Join(got, ", "))
			}
			if !side.Scan || side.Fidelity == "" || side.LowConfidence == "" {
				t.Errorf("the sidecar does not say the copy is a scan's, less faithful: %+v", side)
			}
			c, err := read(out, "")
			if err != nil {
				t.Fatal(err)
			}
			ot, ct := o.Result.Transactions, c.Result.Transactions
			if len(ot) != 8 || len(ct) != len(ot) || side.Rows != len(ot) {
				t.Fatalf("the copy reads %d rows (sidecar %d) where the original reads %d (want 8)", len(ct), side.Rows, len(ot))
			}
			if cs, os := c.Result.Statement.Reconciliation.Status, o.Result.Statement.Reconciliation.Status; cs != os || side.Reconciliation != os {
				t.Errorf("the copy reconciles as %q (sidecar %q), the original as %q", cs, side.Reconciliation, os)
			}
			var factor decimal.Decimal
			for i := range ot {
				oa, ca := ot[i].AmountOut, ct[i].AmountOut
				if oa == nil {
					oa, ca = ot[i].AmountIn, ct[i].AmountIn
				}
				if ca == nil || !ot[i].Date.Equal(ct[i].Date) || ot[i].Type() != ct[i].Type() {
					t.Fatalf("row %d: the copy reads %v %s where the original reads %v %s", i+1, ct[i].Date, ct[i].Type(), ot[i].Date, ot[i].Type())
				}
				if i == 0 {
					factor = ca.Div(*oa)
					if factor.Sub(decimal.NewFromInt(1)).Abs().LessThan(decimal.RequireFromString("0.05")) {
						t.Fatalf("the factor is %s: the amounts were not changed", factor)
					}
				}
				// Each figure is the original's times the factor, to the cent.
				if d := oa.Mul(factor).Sub(*ca).Abs(); d.GreaterThan(oa.Div(decimal.NewFromInt(100)).Add(decimal.RequireFromString("0.02"))) {
					t.Errorf("row %d: %s in the copy, %s in the original: not times %s", i+1, ca, oa, factor)
				}
				if strings.Contains(ot[i].Description, "Fortescue") || strings.Contains(ot[i].Description, "Marchbanks") {
					if ot[i].Description == ct[i].Description {
						t.Errorf("row %d's description %q was not replaced", i+1, ot[i].Description)
					}
				}
			}
		})
	}
}

// TestCopyScanRefusesWhatWouldLeak: where the boxes of the words do not
// stand on their pixels (here the page's header moved right after it
// was read), the words painted over miss the holder's name and address;
// recognised again, the copy still prints them, and it is refused with
// their names, nothing written.
func TestCopyScanRefusesWhatWouldLeak(t *testing.T) {
	data := scans(t)["scanned PDF"]
	first := true
	shifted := func(data []byte, password string) (redact.Reading, error) {
		r, err := read(data, password)
		if err != nil || !first {
			return r, err
		}
		first = false
		g := r.Images[0]
		k := float64(g.Rect.Dx()) / r.Doc.Pages[0].Width
		top, by := int(140*k), g.Rect.Dx()/3
		moved := image.NewGray(g.Rect)
		copy(moved.Pix, g.Pix)
		for y := 0; y < top; y++ {
			row := moved.Pix[y*moved.Stride : y*moved.Stride+g.Rect.Dx()]
			copy(row[by:], g.Pix[y*g.Stride:y*g.Stride+g.Rect.Dx()-by])
			for x := range by {
				row[x] = 255
			}
		}
		r.Images[0] = moved
		return r, nil
	}
	out, _, err := redact.Copy(data, shifted, redact.Options{Seed: 3})
	var re *redact.RefusedError
	if !errors.As(err, &re) || out != nil {
		t.Fatalf("got %d bytes and %v, want a refusal", len(out), err)
	}
	if !strings.Contains(re.Reason, "Quartermaine") && !strings.Contains(re.Reason, "Josephine") && !strings.Contains(re.Reason, "Wellington") {
		t.Errorf("the refusal %q does not name what would leak", re.Reason)
	}
}

// memoRead is read, each file's reading kept by the file's hash.
func memoRead(read redact.Reader) redact.Reader {
	var mu sync.Mutex
	kept := map[[32]byte]redact.Reading{}
	return func(data []byte, password string) (redact.Reading, error) {
		k := sha256.Sum256(append([]byte(password+"\x00"), data...))
		mu.Lock()
		r, ok := kept[k]
		mu.Unlock()
		if ok {
			return r, nil
		}
		r, err := read(data, password)
		if err == nil {
			mu.Lock()
			if len(kept) >= 4 {
				// Only the last file's and its copies' readings are
				// asked for again: the pages' images are megabytes.
				clear(kept)
			}
			kept[k] = r
			mu.Unlock()
		}
		return r, err
	}
}
