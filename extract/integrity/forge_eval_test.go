//go:build forgery

package integrity

// TestForgeryRecall makes forgeries of every kind from the genuine text
// PDFs of the shared corpus (../shared/corpus, or $CORPUS), reads each
// with the engine, and prints the report's recall per kind and its false
// alarms on the genuine files, their re-saved, merged, linearised and
// annotated copies. On each genuine file it also holds the lazy read to
// the report the whole read makes. It links the engine (C), so it runs
// only with the build tag forgery: make integrity-eval.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/pdf"
	"passbook/extract/source"
)

type corpusFile struct {
	set, path, style string
	pages            int
}

func genuineFiles(t *testing.T) []corpusFile {
	dir := os.Getenv("CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpus")
	}
	sets, err := filepath.Glob(filepath.Join(dir, "*", "manifest.json"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("no corpus under %s (set CORPUS)", dir)
	}
	var out []corpusFile
	for _, m := range sets {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		var entries []struct {
			File, Kind, Style string
			Pages             int
		}
		if err := json.Unmarshal(b, &entries); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Kind == "text_pdf" {
				out = append(out, corpusFile{set: filepath.Base(filepath.Dir(m)), path: filepath.Join(filepath.Dir(m), e.File), style: e.Style, pages: e.Pages})
			}
		}
	}
	return out
}

// kinds of forgery, in the order the table prints them.
var forgeryKinds = []string{"amount-edited", "amount-and-balances", "incremental-update", "rewritten", "covering-box", "new-font-cell", "duplicated-row", "tounicode-edited", "page-swapped", "editor-metadata", "cell-shifted"}

// subtle are the kinds the issue counts as subtle: an amount and its
// balances edited and the file saved whole (qpdf; and mutool after it)
// leave nothing but the figures themselves; metadata only; a cell moved
// by a point and a half.
var subtle = map[string]bool{"amount-and-balances": true, "rewritten": true, "editor-metadata": true, "cell-shifted": true}

func TestForgeryRecall(t *testing.T) {
	read := func(data []byte) (*ledger.Result, []byte, error) {
		res, _, err := convert(data)
		return res, data, err
	}
	type tally struct {
		made, found, local, localOK, anyLevel int
		codes                                 map[string]int
	}
	kinds := map[string]*tally{}
	for _, k := range forgeryKinds {
		kinds[k] = &tally{codes: map[string]int{}}
	}
	type fa struct{ files, flagged int }
	genuine := map[string]*fa{}
	var flagged []string
	files := genuineFiles(t)
	lazyRead, readable := 0, 0
	byStyle := map[string][]corpusFile{}
	for _, f := range files {
		byStyle[f.set+"/"+f.style] = append(byStyle[f.set+"/"+f.style], f)
	}
	editorTurn := 0
	check := func(kind, name string, fo forgery) {
		res, _, err := read(fo.data)
		if err != nil {
			return
		}
		k := kinds[kind]
		k.made++
		var hit, any, local bool
		for _, s := range res.Integrity.Signals {
			if ledger.SeverityRank(s.Severity) >= 1 {
				any = true
			}
			if ledger.SeverityRank(s.Severity) < 2 {
				continue
			}
			if !hit {
				k.codes[s.Code]++
			}
			hit = true
			switch {
			case fo.page == 0 || s.Page != fo.page:
			case fo.box == [4]float64{}:
				local = true // the forgery is a whole page
			case s.BBox != nil && overlaps(*s.BBox, fo.box, 2):
				local = true
			}
		}
		if hit {
			k.found++
		} else if os.Getenv("VERBOSE") != "" {
			t.Logf("missed %s %s: %s", kind, name, res.Integrity.Summary)
		}
		if any {
			k.anyLevel++
		}
		if fo.page > 0 && hit {
			k.local++
			if local {
				k.localOK++
			}
		}
	}
	genuineCheck := func(variant, name string, data []byte) {
		res, _, err := read(data)
		if err != nil {
			return
		}
		g := genuine[variant]
		if g == nil {
			g = &fa{}
			genuine[variant] = g
		}
		g.files++
		if ledger.SeverityRank(res.Integrity.Worst()) >= 2 {
			g.flagged++
			flagged = append(flagged, fmt.Sprintf("%s %s: %s", variant, name, res.Integrity.Summary))
		}
	}
	for _, cf := range files {
		data, err := os.ReadFile(cf.path)
		if err != nil {
			t.Fatal(err)
		}
		res, pages, err := convert(data)
		if err != nil {
			continue
		}
		// The lazy read (lazy.go) makes the report the whole read makes.
		readable++
		if f, err := readPDF(data, "", false); err == nil && f.lazy != nil {
			lazyRead++
		}
		in := Input{Data: data, Pages: pages, Result: res}
		a, _ := json.Marshal((&report{}).check(in))
		b, _ := json.Marshal((&report{whole: true}).check(in))
		if string(a) != string(b) {
			t.Errorf("%s: the lazy read reports\n%s\nwhere the whole read reports\n%s", cf.path, a, b)
		}
		producer := "(none)"
		if res.Integrity.Profile != nil && res.Integrity.Profile.Producer != "" {
			producer = strings.Fields(res.Integrity.Profile.Producer)[0]
		}
		name := cf.set + "/" + filepath.Base(cf.path)
		genuineCheck("genuine "+producer, name, data)
		genuineCheck("qpdf rewrite", name, rewrite(t, data))
		genuineCheck("qpdf linearize", name, rewrite(t, data, "--linearize"))
		genuineCheck("mutool clean", name, mutool(t, data, "clean", "-gg"))
		if others := byStyle[cf.set+"/"+cf.style]; len(others) > 1 {
			genuineCheck("merged", name, merge(t, data, otherThan(others, cf.path)))
		}
		fresh := func() *forger {
			fg, err := newForger(in)
			if err != nil {
				return nil
			}
			return fg
		}
		if fg := fresh(); fg != nil {
			genuineCheck("annotated", name, fg.annotate())
		}
		try := func(kind string, make func(fg *forger) (forgery, bool), post func([]byte) []byte) {
			fg := fresh()
			if fg == nil {
				return
			}
			fo, ok := make(fg)
			if !ok {
				return
			}
			if post != nil {
				fo.data = post(fo.data)
			}
			check(kind, name, fo)
		}
		whole := func(b []byte) []byte { return rewrite(t, b) }
		try("amount-edited", func(fg *forger) (forgery, bool) { return fg.amountEdited(false) }, whole)
		try("amount-and-balances", func(fg *forger) (forgery, bool) { return fg.amountEdited(true) }, whole)
		try("incremental-update", func(fg *forger) (forgery, bool) { return fg.amountEdited(true) }, nil)
		try("rewritten", func(fg *forger) (forgery, bool) { return fg.amountEdited(true) }, func(b []byte) []byte { return mutool(t, rewrite(t, b), "clean", "-gg") })
		try("covering-box", (*forger).coveringBox, whole)
		try("new-font-cell", (*forger).newFontCell, whole)
		try("duplicated-row", (*forger).duplicatedRow, whole)
		try("tounicode-edited", (*forger).toUnicodeEdited, whole)
		try("cell-shifted", (*forger).shiftedCell, whole)
		editor := editorNames[editorTurn%len(editorNames)]
		editorTurn++
		try("editor-metadata", func(fg *forger) (forgery, bool) { return fg.editorMetadata(editor) }, whole)
		if cf.pages >= 2 {
			for _, o := range byStyle[cf.set+"/"+cf.style] {
				if o.path != cf.path && o.pages >= 2 {
					b, _ := os.ReadFile(o.path)
					check("page-swapped", name, forgery{data: swapPage(t, data, b), page: 2})
					break
				}
			}
		}
	}
	fmt.Printf("\n%-22s %6s %6s %8s %8s %10s\n", "forgery", "made", "found", "recall", "local", "any-level")
	var structural, structFound, sub, subFound int
	for _, k := range forgeryKinds {
		v := kinds[k]
		loc := "-"
		if v.local > 0 {
			loc = fmt.Sprintf("%d/%d", v.localOK, v.local)
		}
		fmt.Printf("%-22s %6d %6d %7.0f%% %8s %10d  %v\n", k, v.made, v.found, pct(v.found, v.made), loc, v.anyLevel, v.codes)
		if subtle[k] {
			sub += v.made
			subFound += v.found
		} else {
			structural += v.made
			structFound += v.found
		}
	}
	fmt.Printf("structural %d/%d (%.0f%%), subtle %d/%d (%.0f%%)\n\n", structFound, structural, pct(structFound, structural), subFound, sub, pct(subFound, sub))
	fmt.Printf("%d of %d genuine files read lazily, each report as the whole read's\n\n", lazyRead, readable)
	var vs []string
	for v := range genuine {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	fmt.Printf("%-28s %6s %8s\n", "genuine", "files", "flagged")
	for _, v := range vs {
		fmt.Printf("%-28s %6d %8d\n", v, genuine[v].files, genuine[v].flagged)
	}
	for _, f := range flagged {
		fmt.Println("  flagged:", f)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func overlaps(a, b [4]float64, pad float64) bool {
	return a[0] <= b[2]+pad && b[0] <= a[2]+pad && a[1] <= b[3]+pad && b[1] <= a[3]+pad
}

func otherThan(fs []corpusFile, path string) string {
	for _, f := range fs {
		if f.path != path {
			return f.path
		}
	}
	return ""
}

// convert reads a text PDF as extract/engine does (MuPDF's words, the
// analysis, the report), returning the words too. The engine itself
// imports this package, so its test cannot call it.
func convert(data []byte) (*ledger.Result, []source.Page, error) {
	doc, err := pdf.Open(data, "")
	if err != nil {
		return nil, nil, err
	}
	defer doc.Close()
	var pages []source.Page
	for i := range doc.PageCount() {
		pg, err := doc.Words(i)
		if err != nil {
			return nil, nil, err
		}
		pages = append(pages, pg)
	}
	res := extract.AnalyzeDocument(extract.Document{Pages: pages, Created: doc.Created(), Meta: doc.Meta()}, nil)
	res.Integrity = Check(Input{Data: data, Pages: pages, Result: res})
	return res, pages, nil
}

// mutool runs mutool on data (clean, as offices re-save).
func mutool(t testing.TB, data []byte, args ...string) []byte {
	t.Helper()
	return tool(t, "mutool", [][]byte{data}, func(in []string, out string) []string {
		return append(append(slices.Clone(args), in[0]), out)
	})
}

// merge joins data and another statement in one file, as offices merge a
// client's months.
func merge(t testing.TB, data []byte, other string) []byte {
	t.Helper()
	b, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	return tool(t, "qpdf", [][]byte{data, b}, func(in []string, out string) []string {
		return []string{"--empty", "--pages", in[0], in[1], "--", out}
	})
}
