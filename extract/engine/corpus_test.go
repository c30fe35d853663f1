package engine

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"passbook/export"
	"passbook/extract"
	"passbook/extract/internal/score"
	"passbook/extract/ledger"
)

// The corpus evaluation: every statement under ../shared/corpus (statements
// with truths, made by other people and by other producers) converted and
// scored as its score.py scores it. `make eval` runs it and prints the
// table (corpus_eval_test.go, build tag eval); `make ratchet` holds every
// file of every set to the committed baseline (corpus_ratchet_test.go,
// build tag ratchet). `make test` runs neither: a fresh clone has no corpus
// beside it. CI runs both.

// corpusSets are the corpus's folders, in the order the table lists them.
var corpusSets = []string{"dev", "real", "public", "chromium", "reportlab", "office", "typeset", "real2", "real3"}

// ratchetKinds are the kinds make ratchet holds to the baseline: every
// kind, scans, page images and photos too (recognition is deterministic).
var ratchetKinds = []string{"text_pdf", "negative", "scan_pdf", "png", "photo_jpg"}

var (
	updateBaseline = flag.Bool("update-baseline", false, "write the corpus ratchet's baseline from this run; a file that was exactly right stays so unless -lower-baseline")
	lowerBaseline  = flag.Bool("lower-baseline", false, "with -update-baseline, let files that were exactly right drop out of the baseline (say why in the commit)")
)

// baselinePath is the committed ratchet baseline.
const baselinePath = "testdata/corpus_baseline.json"

// corpusEntry is one line of a set's manifest.json.
type corpusEntry struct {
	File  string `json:"file"`
	Kind  string `json:"kind"`
	Truth string `json:"truth"`
	Style string `json:"style"`
}

// corpusResult is one corpus file converted and scored.
type corpusResult struct {
	set   string
	entry corpusEntry
	truth []score.Txn
	got   []score.Txn
	res   *ledger.Result
	err   error
	// matched counts the truth rows found, as score.py counts them.
	matched int
}

// key names a file in the baseline.
func (r corpusResult) key() string { return r.set + "/" + r.entry.File }

// status is the reconciliation status, or "error".
func (r corpusResult) status() string {
	if r.err != nil {
		return "error"
	}
	return r.res.Statement.Reconciliation.Status
}

// exact reports a file read exactly: every true row found and nothing
// else (a negative: no rows at all).
func (r corpusResult) exact() bool {
	return r.err == nil && len(r.got) == len(r.truth) && r.matched == len(r.truth)
}

// falseOK reports a file that says ok while it is wrong.
func (r corpusResult) falseOK() bool { return !r.exact() && r.status() == ledger.ReconcileOK }

// corpusDir finds the corpus: $CORPUS, else ../shared/corpus beside the
// repository. The evaluations need it; without it they fail, they never skip.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpus")
	}
	if _, err := os.Stat(filepath.Join(dir, "dev", "manifest.json")); err != nil {
		t.Fatalf("the corpus evaluation needs the statement corpus (set CORPUS, default ../shared/corpus beside the repository): %v", err)
	}
	return dir
}

// loadManifest reads a set's manifest, keeping the kinds asked for (all
// when kinds is empty).
func loadManifest(t *testing.T, dir, set string, kinds []string) []corpusEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, set, "manifest.json"))
	if err != nil {
		t.Fatalf("set %s: %v", set, err)
	}
	var all []corpusEntry
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatalf("set %s: manifest: %v", set, err)
	}
	var out []corpusEntry
	for _, e := range all {
		if len(kinds) == 0 || slices.Contains(kinds, e.Kind) {
			out = append(out, e)
		}
	}
	return out
}

// evalCorpus converts the files of sets of the given kinds, a worker per
// CPU, and scores each. When outDir is set, each file's JSON download body
// is written to outDir/SET/FILE.json, where score.py reads it.
func evalCorpus(t *testing.T, dir string, sets, kinds []string, outDir string) []corpusResult {
	t.Helper()
	var results []corpusResult
	for _, set := range sets {
		for _, e := range loadManifest(t, dir, set, kinds) {
			results = append(results, corpusResult{set: set, entry: e})
		}
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				convertCorpusFile(t, dir, &results[i], outDir)
			}
		}()
	}
	for i := range results {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

func convertCorpusFile(t *testing.T, dir string, r *corpusResult, outDir string) {
	truthData, err := os.ReadFile(filepath.Join(dir, r.set, r.entry.Truth))
	if err != nil {
		t.Errorf("%s: truth: %v", r.key(), err)
		return
	}
	var truth struct {
		Transactions []score.Txn `json:"transactions"`
	}
	if err := json.Unmarshal(truthData, &truth); err != nil {
		t.Errorf("%s: truth: %v", r.key(), err)
		return
	}
	r.truth = truth.Transactions
	data, err := os.ReadFile(filepath.Join(dir, r.set, r.entry.File))
	if err != nil {
		t.Errorf("%s: %v", r.key(), err)
		return
	}
	r.res, r.err = New().Convert(data, extract.Options{})
	if r.err != nil {
		return
	}
	r.got = score.FromResult(r.res)
	r.matched = score.Match(r.truth, r.got)
	if outDir == "" {
		return
	}
	var buf bytes.Buffer
	if err := export.Write(&buf, export.JSON, export.Options{FileID: r.entry.File}, r.res); err != nil {
		t.Errorf("%s: %v", r.key(), err)
		return
	}
	path := filepath.Join(outDir, r.set, r.entry.File+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		err = os.WriteFile(path, buf.Bytes(), 0o644)
	}
	if err != nil {
		t.Errorf("%s: %v", r.key(), err)
	}
}

// corpusTable prints, per set, the statements exactly right, the negatives
// right and the statements that say ok while wrong; then F1 by kind over
// every set, and the files that fail.
func corpusTable(results []corpusResult) string {
	type tally struct{ stmts, exact, negs, negOK, falseOK, errs int }
	bySet := map[string]*tally{}
	var sets []string
	type prf struct{ truth, found, matched int }
	byKind := map[string]*prf{}
	var kinds []string
	var failing []string
	var dirs score.Directions
	for _, r := range results {
		if r.res != nil {
			dirs = dirs.Add(score.CountDirections(r.truth, r.res.Transactions))
		}
		s := bySet[r.set]
		if s == nil {
			s = &tally{}
			bySet[r.set] = s
			sets = append(sets, r.set)
		}
		k := byKind[r.entry.Kind]
		if k == nil {
			k = &prf{}
			byKind[r.entry.Kind] = k
			kinds = append(kinds, r.entry.Kind)
		}
		k.truth += len(r.truth)
		k.found += len(r.got)
		k.matched += r.matched
		if r.entry.Kind == "negative" {
			s.negs++
			if r.exact() {
				s.negOK++
			}
		} else {
			s.stmts++
			if r.exact() {
				s.exact++
			}
		}
		if r.falseOK() {
			s.falseOK++
		}
		if r.err != nil {
			s.errs++
		}
		if !r.exact() {
			line := fmt.Sprintf("  %-58s %-9s truth %4d found %4d matched %4d  %s", r.key(), r.entry.Kind, len(r.truth), len(r.got), r.matched, r.status())
			if r.falseOK() {
				line += "  FALSE OK"
			}
			if r.err != nil {
				line += ": " + r.err.Error()
			}
			failing = append(failing, line)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %-22s %-16s %-8s %s\n", "set", "statements exact", "negatives right", "false ok", "errors")
	total := tally{}
	for _, set := range sets {
		s := bySet[set]
		fmt.Fprintf(&b, "%-10s %-22s %-16s %-8d %d\n", set, frac(s.exact, s.stmts), frac(s.negOK, s.negs), s.falseOK, s.errs)
		total.stmts += s.stmts
		total.exact += s.exact
		total.negs += s.negs
		total.negOK += s.negOK
		total.falseOK += s.falseOK
		total.errs += s.errs
	}
	fmt.Fprintf(&b, "%-10s %-22s %-16s %-8d %d\n", "all", frac(total.exact, total.stmts), frac(total.negOK, total.negs), total.falseOK, total.errs)
	sort.Strings(kinds)
	b.WriteString("F1 by kind:")
	for _, kind := range kinds {
		k := byKind[kind]
		fmt.Fprintf(&b, "  %s %.4f (truth %d found %d matched %d)", kind, f1(k.matched, k.truth, k.found), k.truth, k.found, k.matched)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "direction nothing printed proves: guessed as money out %s; from the printed sums %s; learned from the rows that begin alike %s\n", dirs.Guessed, dirs.Summed, dirs.Learned)
	if len(failing) > 0 {
		fmt.Fprintf(&b, "files not exactly right (%d):\n%s\n", len(failing), strings.Join(failing, "\n"))
	}
	return b.String()
}

func frac(a, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, n, 100*float64(a)/float64(n))
}

// f1 is score.py's F1 over transactions; nothing to find and nothing found is 1.
func f1(matched, truth, found int) float64 {
	if truth == 0 && found == 0 {
		return 1
	}
	var p, r float64
	if found > 0 {
		p = float64(matched) / float64(found)
	}
	if truth > 0 {
		r = float64(matched) / float64(truth)
	}
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// baselineEntry is what the ratchet remembers of one file.
type baselineEntry struct {
	Exact  bool   `json:"exact"`
	Status string `json:"status"`
}

func readBaseline(path string) (map[string]baselineEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b map[string]baselineEntry
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// ratchet holds results to a baseline. It returns the regressions (a file
// that was exactly right and no longer is, one that was exactly right and
// ok and is no longer ok, any file that says ok while wrong, a file the
// baseline does not list) and the gains (a file now exactly right that the
// baseline does not say is: the baseline must move up with it).
func ratchet(base map[string]baselineEntry, results []corpusResult) (regressions, gains []string) {
	for _, r := range results {
		was, listed := base[r.key()]
		switch {
		case !listed:
			regressions = append(regressions, fmt.Sprintf("%s: not in the baseline (a new corpus file: update the baseline)", r.key()))
		case was.Exact && !r.exact():
			regressions = append(regressions, fmt.Sprintf("%s: was exactly right, now %d of %d rows matched with %d found (%s)", r.key(), r.matched, len(r.truth), len(r.got), r.status()))
		case was.Exact && was.Status == ledger.ReconcileOK && r.status() != ledger.ReconcileOK:
			regressions = append(regressions, fmt.Sprintf("%s: was ok, now %s", r.key(), r.status()))
		case !was.Exact && r.exact():
			gains = append(gains, fmt.Sprintf("%s: now exactly right (%s)", r.key(), r.status()))
		}
		if r.falseOK() {
			regressions = append(regressions, fmt.Sprintf("%s: says ok while wrong (%d of %d rows matched, %d found)", r.key(), r.matched, len(r.truth), len(r.got)))
		}
	}
	return regressions, gains
}

// nextBaseline is the baseline after this run: files keep their place
// unless lower is set, and move up with what they now read.
func nextBaseline(base map[string]baselineEntry, results []corpusResult, lower bool) map[string]baselineEntry {
	next := map[string]baselineEntry{}
	for _, r := range results {
		e := baselineEntry{Exact: r.exact(), Status: r.status()}
		if was, ok := base[r.key()]; ok && was.Exact && !e.Exact && !lower {
			e = was
		}
		next[r.key()] = e
	}
	return next
}

func writeBaseline(path string, b map[string]baselineEntry) error {
	data, err := json.MarshalIndent(b, "", " ") // map keys come out sorted
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
