package synth

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gen2brain/go-fitz"
	"github.com/go-pdf/fpdf"
)

// printedSeeds cover every way each producer lays a statement out:
// Chromium's html-table (paged and flowing), html-absolute and html-flex
// (paged and flowing), LibreOffice's odt-table and odt-tabs; a card, two
// multi-page statements, wrapped descriptions with the amounts on the top,
// middle and bottom line. onePageSeeds are printed as one-page samples.
var (
	printedSeeds = []int64{2, 3, 4, 7, 12, 13, 17}
	onePageSeeds = []int64{1, 5, 11}
)

type printedSet struct {
	fpdf, printed []Sample
	err           error
}

var (
	printedMu    sync.Mutex
	printedCache = map[string]*printedSet{}
)

// printedSamples prints the seeds above through a producer once per test
// run, for the tests that read what it printed.
func printedSamples(t *testing.T, producer string) (fpdf, printed []Sample) {
	t.Helper()
	printedMu.Lock()
	defer printedMu.Unlock()
	set, ok := printedCache[producer]
	if !ok {
		set = &printedSet{}
		for _, seed := range printedSeeds {
			s, err := Generate(seed, Options{})
			if err != nil {
				t.Fatal(err)
			}
			set.fpdf = append(set.fpdf, s)
		}
		for _, seed := range onePageSeeds {
			s, err := Generate(seed, Options{OnePage: true})
			if err != nil {
				t.Fatal(err)
			}
			set.fpdf = append(set.fpdf, s)
		}
		set.printed, set.err = Print(producer, set.fpdf)
		printedCache[producer] = set
	}
	if set.err != nil {
		t.Fatalf("%s: %v", producer, set.err)
	}
	if len(set.printed) != len(set.fpdf) {
		t.Fatalf("%s printed %d of %d samples", producer, len(set.printed), len(set.fpdf))
	}
	return set.fpdf, set.printed
}

var printers = []string{"chromium", "libreoffice"}

// pdfText is a PDF's text as MuPDF reads it, every run of white space one
// space.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	doc, err := fitz.NewFromMemory(pdf)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	var b strings.Builder
	for i := range doc.NumPage() {
		text, err := doc.Text(i)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(text)
		b.WriteString(" ")
	}
	return " " + strings.Join(strings.Fields(b.String()), " ") + " "
}

// TestPrintedTextHoldsTruth reads each printed PDF's text layer and finds
// in it what every transaction row prints (its dates, amounts, balance,
// codes, each in the layout's own form) and every word of its
// description; the rows are the truth's.
func TestPrintedTextHoldsTruth(t *testing.T) {
	for _, producer := range printers {
		_, printed := printedSamples(t, producer)
		for _, s := range printed {
			text := pdfText(t, s.PDF)
			rows := 0
			for _, pg := range s.trace.pages {
				for _, b := range pg.blocks {
					r, ok := b.(rowBlock)
					if !ok || r.label {
						continue
					}
					rows++
					for i, cell := range r.cells {
						if s.trace.cols[i].kind == colDesc {
							for _, w := range strings.Fields(strings.Join(cell, " ")) {
								if !strings.Contains(text, " "+w+" ") {
									t.Fatalf("%s seed %d (%v): description word %q not in the text", producer, s.Seed, s.Features, w)
								}
							}
							continue
						}
						if c := strings.Join(cell, " "); c != "" && !strings.Contains(text, " "+c+" ") {
							t.Fatalf("%s seed %d (%v): cell %q of row %d not in the text", producer, s.Seed, s.Features, c, rows)
						}
					}
				}
			}
			if rows != len(s.Truth.Transactions) {
				t.Fatalf("%s seed %d: %d rows printed, the truth has %d", producer, s.Seed, rows, len(s.Truth.Transactions))
			}
		}
	}
}

// TestPrintedSameStatement checks that every producer prints the statement
// fpdf drew: the same truth, the layout's features less those the producer
// says it cannot print, one layout of its own, and a PDF of its own.
func TestPrintedSameStatement(t *testing.T) {
	for _, producer := range printers {
		fpdf, printed := printedSamples(t, producer)
		for i, s := range printed {
			f := fpdf[i]
			if s.Seed != f.Seed || s.Producer != producer {
				t.Fatalf("%s: sample %d is seed %d by %s", producer, i, s.Seed, s.Producer)
			}
			a, _ := json.Marshal(f.Truth)
			b, _ := json.Marshal(s.Truth)
			if !bytes.Equal(a, b) {
				t.Errorf("%s seed %d: the truth differs from fpdf's", producer, s.Seed)
			}
			if bytes.Equal(s.PDF, f.PDF) || !bytes.HasPrefix(s.PDF, []byte("%PDF-")) {
				t.Errorf("%s seed %d: not a PDF of its own", producer, s.Seed)
			}
			var dropped []string
			if producer == "chromium" {
				_, _, dropped = chooseHTML(f)
			} else {
				_, _, dropped = chooseODT(f)
			}
			for _, feat := range f.Features {
				if feat != "multi-page" && !slices.Contains(dropped, feat) && !s.Has(feat) {
					t.Errorf("%s seed %d: feature %s lost (%v)", producer, s.Seed, feat, s.Features)
				}
				if slices.Contains(dropped, feat) != slices.Contains(s.Dropped, feat) {
					t.Errorf("%s seed %d: feature %s not printed, Dropped %v", producer, s.Seed, feat, s.Dropped)
				}
			}
			for _, feat := range s.Dropped {
				if !f.Has(feat) {
					t.Errorf("%s seed %d: dropped %s, which the layout has not", producer, s.Seed, feat)
				}
			}
			modes := 0
			for _, feat := range s.Features {
				if slices.Contains(dropped, feat) {
					t.Errorf("%s seed %d: lists %s, which it cannot print", producer, s.Seed, feat)
				}
				if !slices.Contains(AllFeatures, feat) && !slices.Contains(ProducerFeatures[producer], feat) {
					t.Errorf("%s seed %d: unknown feature %s", producer, s.Seed, feat)
				}
				if slices.Contains([]string{"html-table", "html-absolute", "html-flex", "odt-table", "odt-tabs"}, feat) {
					modes++
				}
			}
			if modes != 1 {
				t.Errorf("%s seed %d: %d layouts in %v", producer, s.Seed, modes, s.Features)
			}
			if s.Has("multi-page") != (s.Pages > 1) {
				t.Errorf("%s seed %d: %d pages, features %v", producer, s.Seed, s.Pages, s.Features)
			}
		}
	}
}

// TestPrintedPages checks the page counts: a one-page sample prints on one
// page, and a page Chromium prints as fpdf's sheets (html-paged) has
// fpdf's pages, none of them overflowing onto another.
func TestPrintedPages(t *testing.T) {
	for _, producer := range printers {
		fpdf, printed := printedSamples(t, producer)
		for i, s := range printed {
			n, err := countPages(s.PDF)
			if err != nil {
				t.Fatal(err)
			}
			if n != s.Pages {
				t.Errorf("%s seed %d: %d pages, the sample says %d", producer, s.Seed, n, s.Pages)
			}
			if s.onePage && n != 1 {
				t.Errorf("%s seed %d: a one-page sample printed on %d pages", producer, s.Seed, n)
			}
			if s.Has("html-paged") && n != fpdf[i].Pages {
				t.Errorf("%s seed %d: %d pages, fpdf drew %d", producer, s.Seed, n, fpdf[i].Pages)
			}
		}
	}
}

// TestProducerStyles draws the producers' styles for many seeds (without
// printing): every producer feature comes up, html-absolute keeps fpdf's
// pages and widths, and a seed writes the same document every time; the
// ODF documents are well-formed XML.
func TestProducerStyles(t *testing.T) {
	seen := map[string]int{}
	for seed := int64(1); seed <= 120; seed++ {
		s, err := Generate(seed, Options{})
		if err != nil {
			t.Fatal(err)
		}
		hs, hf, _ := chooseHTML(s)
		os, of, _ := chooseODT(s)
		for _, f := range append(hf, of...) {
			seen[f]++
		}
		if hs.mode == "html-absolute" && (!hs.paged || !hs.face.metric) {
			t.Errorf("seed %d: html-absolute, paged %v, face %s", seed, hs.paged, hs.face.family)
		}
		hs.fit, os.fit = 1, 1
		h1, f1 := s.html(hs)
		h2, f2 := s.html(hs)
		o1, o2 := s.fodt(os), s.fodt(os)
		if h1 != h2 || f1 != f2 || o1 != o2 {
			t.Fatalf("seed %d: one style wrote two documents", seed)
		}
		if hs.paged != (f1 == "") {
			t.Errorf("seed %d: paged %v with footer template %q", seed, hs.paged, f1)
		}
		d := xml.NewDecoder(strings.NewReader(o1))
		for {
			_, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("seed %d: the ODF document: %v", seed, err)
			}
		}
	}
	for p, fs := range ProducerFeatures {
		for _, f := range fs {
			if seen[f] == 0 {
				t.Errorf("%s: feature %s never drawn in 120 seeds", p, f)
			}
		}
	}
}

// TestFaceFit checks the font measurements: Liberation has the widths of
// fpdf's core fonts, DejaVu is wider and is printed smaller to fit.
func TestFaceFit(t *testing.T) {
	s, err := Generate(3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range faces[s.layout.Font] {
		fit, err := f.fit(s.trace)
		if err != nil {
			t.Fatal(err)
		}
		if f.metric && fit < 0.97 || !f.metric && fit > 0.97 || fit < 0.7 {
			t.Errorf("%s: fit %.3f", f.family, fit)
		}
	}
	// Liberation Sans against fpdf's Helvetica, on a string of its own.
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetFont("Helvetica", "", 10)
	want := pdf.GetStringWidth("Balance 1,234.56 Overdraft")
	got, err := faces["Helvetica"][1].width("Balance 1,234.56 Overdraft", 10, false)
	if err != nil {
		t.Fatal(err)
	}
	if got < want*0.99 || got > want*1.01 {
		t.Errorf("Liberation Sans 10 pt: %.2f mm, Helvetica %.2f", got, want)
	}
}
