//go:build verbatim

package ocr

import (
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"passbook/extract/pdf"
)

// `make ocr-verbatim`: how much of what the corpus's scans, page images and
// photos print recognition reads verbatim, before any analysis. For each
// set and kind it prints the share of the truth's amounts and dates found
// among the words, per engine and mode:
//
//   - pipeline: what the engine reads (Read: clean-up, the modes it
//     combines, repairs), the words extract.Analyze is given;
//   - sparse: the pipeline without its block-mode figures (vote.go);
//   - merged: the pipeline without its figures re-read on their own
//     crops (reread.go);
//   - noblock: the pipeline without its block-mode figures but with its
//     re-read crops (what the block mode adds to the whole);
//   - psmN: Tesseract alone in page segmentation mode N, English, on the
//     page as Read prepares it (the same pixels).
//
// The truth counts the figures a statement prints, as its text layer
// shows them: where the corpus holds the same statement as a text PDF,
// only the truth's amounts and dates that its text layer prints verbatim
// count (a balance the statement does not print, which the truth
// computes, is nobody's to read); otherwise all of them.
//
// An amount is found when a word, or two adjacent words joined, is the
// amount with its two decimals (grouping and the decimal mark as printed
// in either convention, a sign, currency mark or CR/DR around it
// ignored). A date is found when one to three adjacent words are that day
// and month (numeric in either order, or with a month name in one of the
// lexicon's seven languages) and its year when one is printed. Both are
// counted as multisets: a value the truth holds three times must be read
// three times.

var (
	verbatimSets  = flag.String("sets", "dev,real,public,chromium,reportlab", "comma-separated corpus sets")
	verbatimModes = flag.String("modes", "pipeline,psm11,psm6", "comma-separated engines and modes: pipeline, sparse, merged, noblock, psm3, psm6, psm11")
	verbatimShow  = flag.Bool("show-missed", false, "print each document's amounts and dates not found")
	verbatimOut   = flag.String("out", "", "write the words each mode read, one a line, to OUT/MODE/SET/FILE.txt")
)

// verbatimDPI is the resolution scan PDFs are rendered at, as extract/engine renders them.
const verbatimDPI = 200

// verbatimKinds are the manifest kinds measured, and the names printed.
var verbatimKinds = map[string]string{"scan_pdf": "scan", "png": "png", "photo_jpg": "photo"}

// verbatimDoc is one corpus image document and what each mode read of it.
type verbatimDoc struct {
	set, file, kind string
	amounts, dates  []string // the truth's, canonical: "351.20", "2024-03-15"
	// found[mode] = amounts found, dates found, and what was missed.
	found map[string]verbatimCount
	err   error
}

type verbatimCount struct {
	amounts, dates int
	missed         []string
}

func TestOCRVerbatim(t *testing.T) {
	dir := os.Getenv("CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpus")
	}
	if _, err := os.Stat(filepath.Join(dir, "dev", "manifest.json")); err != nil {
		t.Fatalf("ocr-verbatim needs the statement corpus (set CORPUS): %v", err)
	}
	modes := strings.Split(*verbatimModes, ",")
	for _, m := range modes {
		if m != "pipeline" && m != "sparse" && m != "merged" && m != "noblock" && !strings.HasPrefix(m, "psm") {
			t.Fatalf("unknown mode %q", m)
		}
	}
	var docs []*verbatimDoc
	for _, set := range strings.Split(*verbatimSets, ",") {
		data, err := os.ReadFile(filepath.Join(dir, set, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var entries []struct{ File, Kind, Truth string }
		if err := json.Unmarshal(data, &entries); err != nil {
			t.Fatal(err)
		}
		textPDF := map[string]string{}
		for _, e := range entries {
			if e.Kind == "text_pdf" {
				textPDF[e.Truth] = e.File
			}
		}
		for _, e := range entries {
			kind, ok := verbatimKinds[e.Kind]
			if !ok {
				continue
			}
			d := &verbatimDoc{set: set, file: e.File, kind: kind, found: map[string]verbatimCount{}}
			d.amounts, d.dates, err = truthFigures(filepath.Join(dir, set, e.Truth))
			if err != nil {
				t.Fatal(err)
			}
			if f := textPDF[e.Truth]; f != "" {
				words, err := textLayerWords(filepath.Join(dir, set, f))
				if err != nil {
					t.Fatal(err)
				}
				d.amounts, d.dates = printedFigures(d.amounts, d.dates, words)
			}
			docs = append(docs, d)
		}
	}
	start := time.Now()
	jobs := make(chan *verbatimDoc)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range jobs {
				d.err = measureVerbatim(d, filepath.Join(dir, d.set, d.file), modes)
			}
		}()
	}
	for _, d := range docs {
		jobs <- d
	}
	close(jobs)
	wg.Wait()
	for _, d := range docs {
		if d.err != nil {
			t.Errorf("%s/%s: %v", d.set, d.file, d.err)
		}
	}
	fmt.Printf("ocr-verbatim: %d documents in %s\n%s", len(docs), time.Since(start).Round(time.Second), verbatimTable(docs, modes))
}

// truthFigures reads a truth file's amounts (in, out and balance, without
// sign) and dates.
func truthFigures(path string) (amounts, dates []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var truth struct {
		Transactions []struct {
			Date      string  `json:"date"`
			AmountIn  *string `json:"amountIn"`
			AmountOut *string `json:"amountOut"`
			Balance   *string `json:"balance"`
		} `json:"transactions"`
	}
	if err := json.Unmarshal(data, &truth); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, tx := range truth.Transactions {
		for _, a := range []*string{tx.AmountIn, tx.AmountOut, tx.Balance} {
			if a != nil && *a != "" {
				amounts = append(amounts, strings.TrimPrefix(*a, "-"))
			}
		}
		dates = append(dates, tx.Date)
	}
	return amounts, dates, nil
}

// textLayerWords are the words of a text PDF's text layer.
func textLayerWords(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := pdf.Open(data, "")
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	var words []string
	for i := range doc.PageCount() {
		pg, err := doc.Words(i)
		if err != nil {
			return nil, err
		}
		for _, w := range pg.Words {
			words = append(words, w.Text)
		}
	}
	return words, nil
}

// printedFigures keeps the amounts and dates words print verbatim.
func printedFigures(amounts, dates, words []string) ([]string, []string) {
	c := countVerbatim(amounts, dates, words)
	missed := map[string]int{}
	for _, m := range c.missed {
		missed[m]++
	}
	keep := func(all []string) []string {
		var out []string
		for _, v := range all {
			if missed[v] > 0 {
				missed[v]--
				continue
			}
			out = append(out, v)
		}
		return out
	}
	return keep(amounts), keep(dates)
}

// measureVerbatim reads every page of one document in each mode and counts
// the truth's figures among the words.
func measureVerbatim(d *verbatimDoc, path string, modes []string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var pages []image.Image
	dpi := 0.0
	if d.kind == "scan" {
		doc, err := pdf.Open(data, "")
		if err != nil {
			return err
		}
		for i := range doc.PageCount() {
			g, err := doc.RenderGray(i, verbatimDPI)
			if err != nil {
				doc.Close()
				return err
			}
			pages = append(pages, g)
		}
		doc.Close()
		dpi = verbatimDPI
	} else if pages, err = Decode(data); err != nil {
		return err
	}
	for _, mode := range modes {
		var words []string
		for i, img := range pages {
			if mode == "pipeline" || mode == "sparse" || mode == "merged" || mode == "noblock" {
				g, gdpi, _ := preparePage(toGray(img), dpi)
				opt := readOptions{blockFigures: mode == "pipeline" || mode == "merged", reread: mode == "pipeline" || mode == "noblock"}
				pg, err := readPrepared(g, gdpi, i+1, opt)
				if err != nil {
					return err
				}
				for _, w := range pg.Words {
					words = append(words, w.Text)
				}
				continue
			}
			g, gdpi, _ := preparePage(toGray(img), dpi)
			ws, _, err := recognize(g, gdpi, "eng", segMode(strings.TrimPrefix(mode, "psm")))
			if err != nil {
				return err
			}
			for _, w := range ws {
				words = append(words, w.text)
			}
		}
		d.found[mode] = countVerbatim(d.amounts, d.dates, words)
		if *verbatimOut != "" {
			path := filepath.Join(*verbatimOut, mode, d.set, d.file+".txt")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, []byte(strings.Join(words, "\n")+"\n"), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// countVerbatim counts the amounts and dates (multisets) found in words.
func countVerbatim(amounts, dates, words []string) verbatimCount {
	printedAmounts := map[string]int{}
	for i := range words {
		if a, ok := verbatimAmount(words[i]); ok {
			printedAmounts[a]++
			continue
		}
		if i+1 < len(words) {
			if a, ok := verbatimAmount(words[i] + words[i+1]); ok {
				printedAmounts[a]++
			}
		}
	}
	printedDates := map[string]int{}
	for i := 0; i < len(words); i++ {
		// The longest window that is a date, so "15 Mar 2024" counts once.
		for n := 3; n >= 1; n-- {
			if i+n > len(words) {
				continue
			}
			if ds := verbatimDates(strings.Join(words[i:i+n], " ")); len(ds) > 0 {
				for _, d := range ds {
					printedDates[d]++
				}
				i += n - 1
				break
			}
		}
	}
	var c verbatimCount
	for _, a := range amounts {
		if printedAmounts[a] > 0 {
			printedAmounts[a]--
			c.amounts++
		} else {
			c.missed = append(c.missed, a)
		}
	}
	for _, d := range dates {
		if k := datesKey(d, printedDates); k != "" {
			printedDates[k]--
			c.dates++
		} else {
			c.missed = append(c.missed, d)
		}
	}
	return c
}

// datesKey is the printed form (with or without its year) under which the
// truth date d was read, "" when it was not.
func datesKey(d string, printed map[string]int) string {
	if printed[d] > 0 {
		return d
	}
	if k := "----" + d[4:]; printed[k] > 0 { // printed without a year
		return k
	}
	return ""
}

// amountShape is an amount as printed, its sign and currency stripped.
// Groups of two digits are India's (4,13,199.42).
var amountShape = regexp.MustCompile(`^([0-9]{1,3}(?:[.,' ][0-9]{2,3})+|[0-9]+)[.,]([0-9]{2})$`)

// verbatimAmount is the canonical form ("1234.56") of a word that is an amount.
func verbatimAmount(w string) (string, bool) {
	w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsDigit(r) })
	m := amountShape.FindStringSubmatch(w)
	if m == nil {
		return "", false
	}
	intPart := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, m[1])
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	return intPart + "." + m[2], true
}

var (
	numericDate = regexp.MustCompile(`^([0-9]{1,4})[/.\-]([0-9]{1,2})(?:[/.\-]([0-9]{2,4}))?\.?$`)
	dayMonth    = regexp.MustCompile(`^([0-9]{1,2})(?:st|nd|rd|th|\.)?[\s\-/]*(?:de\s+)?(\pL{3,})\.?(?:[\s\-/,]*(?:de\s+)?([0-9]{2,4}))?$`)
	monthDay    = regexp.MustCompile(`^(\pL{3,})\.?[\s\-]*([0-9]{1,2})(?:st|nd|rd|th)?,?(?:\s*([0-9]{4}))?$`)
)

// monthNames are the months in the lexicon's seven languages, accents folded.
var monthNames = [][]string{
	{"january", "januar", "janvier", "enero", "gennaio", "janeiro", "januari", "jänner"},
	{"february", "februar", "fevrier", "febrero", "febbraio", "fevereiro", "februari"},
	{"march", "marz", "mars", "marzo", "marco", "maart"},
	{"april", "avril", "abril", "aprile"},
	{"may", "mai", "mayo", "maggio", "maio", "mei"},
	{"june", "juni", "juin", "junio", "giugno", "junho"},
	{"july", "juli", "juillet", "julio", "luglio", "julho"},
	{"august", "aout", "agosto", "augustus"},
	{"september", "septembre", "septiembre", "settembre", "setembro"},
	{"october", "oktober", "octobre", "octubre", "ottobre", "outubro"},
	{"november", "novembre", "noviembre", "novembro"},
	{"december", "dezember", "decembre", "diciembre", "dicembre", "dezembro"},
}

// monthOf is the month (1–12) a word names, in full or cut to three or
// more letters; 0 when none.
func monthOf(w string) int {
	w = strings.ToLower(foldAccents(w))
	if len(w) < 3 {
		return 0
	}
	for i, names := range monthNames {
		for _, n := range names {
			if strings.HasPrefix(n, w) || (len(w) == 4 && strings.HasPrefix(n, w[:3]) && w[3] == 't') { // "Sept"
				return i + 1
			}
		}
	}
	return 0
}

func foldAccents(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, norm.NFD.String(s))
}

// verbatimDates are the dates ("2024-03-15", or "-----03-15" without a
// year) a window of words may be: both orders of a numeric day and month.
func verbatimDates(s string) []string {
	s = strings.TrimRight(s, ",;:")
	mk := func(y string, m, d int) string {
		if m < 1 || m > 12 || d < 1 || d > 31 {
			return ""
		}
		switch len(y) {
		case 0:
			y = "----"
		case 2:
			y = "20" + y
		case 4:
		default:
			return ""
		}
		return fmt.Sprintf("%s-%02d-%02d", y, m, d)
	}
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s)
		}
	}
	if m := numericDate.FindStringSubmatch(s); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if len(m[1]) == 4 {
			if m[3] != "" {
				c, _ := strconv.Atoi(m[3])
				add(mk(m[1], b, c))
			}
			return out
		}
		add(mk(m[3], b, a))
		if a != b {
			add(mk(m[3], a, b))
		}
		return out
	}
	if m := dayMonth.FindStringSubmatch(s); m != nil {
		d, _ := strconv.Atoi(m[1])
		add(mk(m[3], monthOf(m[2]), d))
		return out
	}
	if m := monthDay.FindStringSubmatch(s); m != nil {
		d, _ := strconv.Atoi(m[2])
		add(mk(m[3], monthOf(m[1]), d))
	}
	return out
}

// verbatimTable prints per set and kind, per mode, the shares found, then
// the totals, and last the line for the pipeline.
func verbatimTable(docs []*verbatimDoc, modes []string) string {
	type tally struct{ docs, amounts, amountsFound, dates, datesFound, under90 int }
	groups := map[string]map[string]*tally{}
	var keys []string
	total := map[string]*tally{}
	for _, d := range docs {
		if d.err != nil {
			continue
		}
		key := d.set + " " + d.kind
		if groups[key] == nil {
			groups[key] = map[string]*tally{}
			keys = append(keys, key)
		}
		for _, m := range modes {
			if groups[key][m] == nil {
				groups[key][m] = &tally{}
			}
			if total[m] == nil {
				total[m] = &tally{}
			}
			c := d.found[m]
			for _, t := range []*tally{groups[key][m], total[m]} {
				t.docs++
				t.amounts += len(d.amounts)
				t.amountsFound += c.amounts
				t.dates += len(d.dates)
				t.datesFound += c.dates
				if c.amounts*10 < len(d.amounts)*9 {
					t.under90++
				}
			}
		}
	}
	sort.Strings(keys)
	pct := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %-9s %5s %9s %9s %s\n", "set kind", "mode", "docs", "amounts", "dates", "docs with amounts under 90%")
	line := func(name, m string, t *tally) {
		fmt.Fprintf(&b, "%-16s %-9s %5d %9s %9s %d\n", name, m, t.docs, pct(t.amountsFound, t.amounts), pct(t.datesFound, t.dates), t.under90)
	}
	for _, k := range keys {
		for _, m := range modes {
			line(k, m, groups[k][m])
		}
	}
	for _, m := range modes {
		line("all", m, total[m])
	}
	if *verbatimShow {
		for _, d := range docs {
			for _, m := range modes {
				if c := d.found[m]; len(c.missed) > 0 {
					fmt.Fprintf(&b, "missed %s/%s %s: %s\n", d.set, d.file, m, strings.Join(c.missed, " "))
				}
			}
		}
	}
	if t := total["pipeline"]; t != nil {
		fmt.Fprintf(&b, "pipeline amounts %s dates %s\n", pct(t.amountsFound, t.amounts), pct(t.datesFound, t.dates))
	}
	return b.String()
}
