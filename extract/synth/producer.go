package synth

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"

	"github.com/gen2brain/go-fitz"
)

// Producers are the programs a sample can be printed with: fpdf draws it
// (Generate), Chromium prints it as HTML and CSS, LibreOffice converts it
// as an office document. Every producer prints the same statement (the
// same words, numbers, rows and truth); each has its own text layer.
var Producers = []string{"fpdf", "chromium", "libreoffice"}

// ProducerFeatures are the features a producer adds to a sample's list:
// how it laid the statement out and with which font.
var ProducerFeatures = map[string][]string{
	"chromium":    {"html-table", "html-absolute", "html-flex", "html-paged", "html-flow", "html-auto-width", "rows-split", "font-system", "font-embedded", "font-dejavu"},
	"libreoffice": {"odt-table", "odt-tabs", "rows-split", "font-dejavu"},
}

// Print prints samples made by Generate through a producer and returns
// them with the producer's PDF, its page count and its features: the
// layout's, less those the producer cannot print, and the producer's own
// (ProducerFeatures). The truth does not change. A one-page sample
// (Options.OnePage) is printed smaller until it fits on one page.
// Chromium and LibreOffice must be installed (make test-deps).
//
// A sample the producer could not print is left out of the result, in
// order, and its error joined into the error returned.
func Print(producer string, samples []Sample) ([]Sample, error) {
	for _, s := range samples {
		if s.trace == nil || s.Producer != "fpdf" {
			return nil, fmt.Errorf("seed %d: print a sample as Generate made it", s.Seed)
		}
	}
	switch producer {
	case "fpdf":
		return samples, nil
	case "chromium":
		return printChromium(samples)
	case "libreoffice":
		return printOffice(samples)
	}
	return nil, fmt.Errorf("unknown producer %q (want one of %v)", producer, Producers)
}

// printing is what a producer made of a sample.
type printing struct {
	producer       string
	pdf            []byte
	source, ext    string // the document it printed (HTML, flat ODF) and its file extension
	pages          int
	feats, dropped []string // its own features; the layout's it could not print
}

// printed is s as a producer printed it.
func (s Sample) printed(p printing) Sample {
	out := s
	out.Producer = p.producer
	out.PDF = p.pdf
	out.Pages = p.pages
	out.source, out.sourceExt = p.source, p.ext
	out.Features = slices.DeleteFunc(slices.Clone(s.Features), func(f string) bool {
		if slices.Contains(p.dropped, f) {
			out.Dropped = append(out.Dropped, f)
			return true
		}
		return f == "multi-page"
	})
	out.Features = append(out.Features, p.feats...)
	pages := p.pages
	if pages == 1 {
		// Rows split only at a page's end.
		out.Features = slices.DeleteFunc(out.Features, func(f string) bool { return f == "rows-split" })
	}
	if pages > 1 {
		out.Features = append(out.Features, "multi-page")
	}
	return out
}

// toolPath finds a producer's program: the one the environment variable
// names, or Debian's, which make test-deps installs.
func toolPath(env, name, deb string) (string, error) {
	p := os.Getenv(env)
	if p == "" {
		p = name
	}
	path, err := exec.LookPath(p)
	if err != nil {
		return "", fmt.Errorf("printing through %s needs %s: install Debian's %s (make test-deps does) or set %s: %w", name, p, deb, env, err)
	}
	return path, nil
}

// rowGap is the space fpdf leaves under a transaction row whose table line
// is lh high: more when a rule separates the rows.
func rowGap(l Layout, lh float64) float64 {
	if l.AmtLine != "amount-line-top" {
		return lh * 0.9
	}
	return lh * 0.45
}

// valign is where a row's other cells stand beside a wrapped description,
// as CSS and ODF name it.
func valign(l Layout) string {
	return map[string]string{"amount-line-top": "top", "amount-line-middle": "middle", "amount-line-bottom": "bottom"}[l.AmtLine]
}

// countPages reads a PDF's page count with MuPDF.
func countPages(pdf []byte) (int, error) {
	doc, err := fitz.NewFromMemory(pdf)
	if err != nil {
		return 0, err
	}
	defer doc.Close()
	return doc.NumPage(), nil
}

// tooLong reports whether a printed sample has more pages than it may:
// a one-page sample one.
func (s Sample) tooLong(pages int) bool { return s.onePage && pages > 1 }

// shrink is the factor a sample's sizes are multiplied by on each new try
// when it overflowed its page, and tries how many times it is tried.
const (
	shrink = 0.88
	tries  = 5
)

// parallel runs f(i) for i < n on two goroutines and returns each one's
// error.
func parallel(n int, f func(worker, i int) error) []error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	next := make(chan int)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = f(w, i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

// collect keeps the samples printed without error and joins the errors.
func collect(out []Sample, errs []error) ([]Sample, error) {
	var kept []Sample
	for i, s := range out {
		if errs[i] == nil {
			kept = append(kept, s)
		}
	}
	return kept, errors.Join(errs...)
}
