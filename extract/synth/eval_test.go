package synth

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/go-pdf/fpdf"

	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"passbook/extract"
	"passbook/extract/engine"
	"passbook/extract/internal/score"
	"passbook/extract/ledger"
)

// The random-layout evaluation. `make eval-random N=300 SEED=1 KINDS=text
// PRODUCER=all` runs it at length and holds the engine to the goal: no
// statement says "ok" while it is wrong. `make test` runs a short slice
// (the defaults below: 20 text statements drawn by fpdf, 10 printed by
// Chromium and 10 by LibreOffice, the same layouts) with a seed that changes
// on every run, printed so a failure can be reproduced, and holds the
// engine to floors well below today's figures, to be raised as the engine
// improves. Text, 300 seeds from 4242001: exactly right fpdf 81%, Chromium
// 82%, LibreOffice 80%; false ok 0, 2 and 4 (under 1.5%: with 10 statements
// one or two may happen, so the printed producers may have 2 of 10).
var (
	evalN        = flag.Int("n", 20, "random statements per kind")
	evalNPrinted = flag.Int("n-printed", 10, "random statements per kind printed by Chromium and LibreOffice (0: as -n)")
	evalSeed     = flag.Int64("seed", 0, "first seed (0: a new one on every run)")
	evalKinds    = flag.String("kinds", "text", "comma-separated kinds: text, scan, png, photo")
	evalProducer = flag.String("producer", "all", "fpdf, chromium, libreoffice, a comma-separated list of them, or all")
	evalOut      = flag.String("out", "/tmp/passbook-eval-random", "where failing samples are written")
	evalMinExact = flag.String("min-exact", "fpdf=0.8,chromium=0.7,libreoffice=0.7", "minimum share of statements exactly right, per kind: one share, or producer=share,...")
	evalMaxFalse = flag.String("max-false-ok", "fpdf=0.05,chromium=0.1,libreoffice=0.1", "largest share of statements that may say ok while wrong, per kind: one share, or producer=share,...")
	evalForce    = flag.String("force", "", "comma-separated features every statement must have (see AllFeatures)")
	evalPlain    = flag.Bool("plain", false, "take the most common option of every choice not forced")
)

// evalResult is one converted sample.
type evalResult struct {
	sample          Sample
	kind            string
	truth, found    int
	matched         int
	status          string
	err             error
	got             []TruthTxn
	input           []byte
	ext             string
	openOK, closeOK bool
	// accountsOK: a document of several accounts lists each of them.
	accountsOK bool
}

func (e evalResult) exact() bool {
	return e.err == nil && e.matched == e.truth && e.found == e.truth && e.accountsOK
}

func TestEvalRandom(t *testing.T) {
	seed := *evalSeed
	if seed == 0 {
		seed = time.Now().UnixNano()%1_000_000_000 + 1
	}
	kinds := strings.Split(*evalKinds, ",")
	producers := evalProducers(t)
	minExact, maxFalse := floors(t, "min-exact", *evalMinExact, producers), floors(t, "max-false-ok", *evalMaxFalse, producers)
	repro := fmt.Sprintf("make eval-random SEED=%d N=%d KINDS=%s PRODUCER=%s", seed, *evalN, *evalKinds, strings.Join(producers, ","))
	if *evalNPrinted > 0 && *evalNPrinted != *evalN && slices.ContainsFunc(producers, func(p string) bool { return p != "fpdf" }) {
		repro += fmt.Sprintf(" NPRINTED=%d", *evalNPrinted)
	}
	if *evalForce != "" {
		repro += " FORCE=" + *evalForce
	}
	if *evalPlain {
		repro += " PLAIN=1"
	}
	fmt.Printf("eval-random: seed %d, n %d, kinds %s, producers %s (reproduce: %s)\n", seed, *evalN, *evalKinds, strings.Join(producers, ","), repro)
	if err := os.MkdirAll(*evalOut, 0o755); err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, kind := range kinds {
		for _, producer := range producers {
			n := *evalN
			if producer != "fpdf" && *evalNPrinted > 0 {
				n = *evalNPrinted
			}
			start := time.Now()
			results := evalKind(t, kind, producer, seed, n)
			summary = append(summary, report(t, producer, kind, results, time.Since(start), minExact[producer], maxFalse[producer]))
		}
	}
	fmt.Printf("\n== summary (seed %d) ==\n%-12s %-6s %5s %8s %8s %9s %7s %8s\n%s", seed, "producer", "kind", "n", "exact", "F1", "false ok", "errors", "time", strings.Join(summary, ""))
}

// evalKind generates n statements from seed on, prints them through the
// producer and converts them as kind.
func evalKind(t *testing.T, kind, producer string, seed int64, n int) []evalResult {
	t.Helper()
	results := make([]evalResult, n)
	samples := make([]Sample, n)
	errs := parallel(n, func(_, i int) error {
		var err error
		samples[i], err = evalGenerate(kind, seed+int64(i))
		return err
	})
	var ok []Sample
	for i, err := range errs {
		if err != nil {
			results[i] = evalResult{kind: kind, sample: Sample{Seed: seed + int64(i), Producer: producer}, err: fmt.Errorf("generate: %w", err)}
			continue
		}
		ok = append(ok, samples[i])
	}
	printed, err := Print(producer, ok)
	if err != nil {
		// A producer that is missing, or could not print a statement.
		t.Errorf("%s: %v", producer, err)
	}
	byseed := map[int64]Sample{}
	for _, s := range printed {
		byseed[s.Seed] = s
	}
	parallel(n, func(_, i int) error {
		if errs[i] != nil {
			return nil
		}
		s, ok := byseed[seed+int64(i)]
		if !ok {
			results[i] = evalResult{kind: kind, sample: samples[i], err: fmt.Errorf("print with %s failed", producer)}
			results[i].sample.Producer = producer
			results[i].truth = len(samples[i].Truth.Transactions)
			return nil
		}
		results[i] = evalSample(kind, s)
		return nil
	})
	return results
}

// evalGenerate makes the statement of one seed for a kind.
func evalGenerate(kind string, seed int64) (Sample, error) {
	var force []string
	if *evalForce != "" {
		force = strings.Split(*evalForce, ",")
	}
	return GenerateWith(seed, force, Options{OnePage: kind == "png" || kind == "photo", Plain: *evalPlain})
}

// evalSample converts one generated sample as kind and scores it.
func evalSample(kind string, s Sample) evalResult {
	res := evalResult{kind: kind, sample: s}
	var err error
	res.truth = len(s.Truth.Transactions)
	res.input, res.ext, err = inputFor(kind, s)
	if err != nil {
		res.err = fmt.Errorf("render %s: %w", kind, err)
		return res
	}
	out, err := engine.New().Convert(res.input, extract.Options{})
	if err != nil {
		res.err = fmt.Errorf("convert: %w", err)
		return res
	}
	res.got = score.FromResult(out)
	res.found = len(res.got)
	res.matched = score.Match(s.Truth.Transactions, res.got)
	res.status = out.Statement.Reconciliation.Status
	st := s.Truth.Statement
	res.openOK = st.OpeningBalance == nil || out.Statement.OpeningBalance != nil && out.Statement.OpeningBalance.StringFixed(2) == *st.OpeningBalance
	res.closeOK = st.ClosingBalance == nil || out.Statement.ClosingBalance != nil && out.Statement.ClosingBalance.StringFixed(2) == *st.ClosingBalance
	res.accountsOK = accountsMatch(st.Accounts, out.Statement.Accounts)
	return res
}

// accountsMatch reports whether got lists the truth's accounts, in order.
func accountsMatch(truth []TruthAccount, got []ledger.Account) bool {
	if len(truth) == 0 {
		return len(got) == 0
	}
	if len(got) != len(truth) {
		return false
	}
	for i, a := range truth {
		if !score.SameNumber(a.Number, got[i].Number) {
			return false
		}
	}
	return true
}

// featureClasses are the layout classes of issue 7 ("Layout features that
// broke it", 1-10), each as the features GenerateWith forces.
var featureClasses = []struct {
	n     int
	force []string
}{
	{1, []string{"short-table", "signed-amount", "balance-none"}},
	{1, []string{"two-tables", "signed-amount", "balance-none"}},
	{2, []string{"num-no-decimals"}},
	{2, []string{"num-one-decimal"}},
	{2, []string{"placeholder-zero"}},
	{2, []string{"placeholder-zero-dec"}},
	{2, []string{"placeholder-dash"}},
	{2, []string{"placeholder-cur-zero"}},
	{2, []string{"placeholder-neg-cur-zero"}},
	{3, []string{"date-iso", "num-no-decimals"}},
	{4, []string{"opening-box", "box-format-differs"}},
	{4, []string{"opening-row"}},
	{4, []string{"closing-row", "totals-row"}},
	{4, []string{"fees-table"}},
	{5, []string{"card"}},
	{5, []string{"card-purchases-negative"}},
	{6, []string{"date-far-left", "ref-column"}},
	{6, []string{"category", "points"}},
	{6, []string{"unsorted"}},
	{7, []string{"wrap-long", "amount-line-top"}},
	{7, []string{"wrap-long", "amount-line-middle"}},
	{7, []string{"wrap-long", "amount-line-bottom"}},
	{7, []string{"tricky-words"}},
	{8, []string{"glyph-by-glyph"}},
	{8, []string{"watermark"}},
	{9, []string{"two-accounts"}},
	{10, []string{"balance-daily"}},
}

// report prints the figures of one producer and kind, writes its failing
// samples, holds them to the floors and returns a line of the summary.
func report(t *testing.T, producer, kind string, results []evalResult, took time.Duration, minExact, maxFalse float64) string {
	t.Helper()
	var T, F, M, exact, falseOK, errs, statusDiff, openBad, closeBad int
	have := map[string]int{}
	fail := map[string]int{}
	statuses := map[string]int{} // "expected -> got"
	dropped := map[string]int{}  // layout features the producer could not print
	var falseOKSeeds, failSeeds []string
	for _, r := range results {
		T += r.truth
		F += r.found
		M += r.matched
		if r.err != nil {
			errs++
		}
		if !r.openOK {
			openBad++
		}
		if !r.closeOK {
			closeBad++
		}
		if r.err == nil && r.status != r.sample.Truth.Statement.Reconciliation {
			statusDiff++
		}
		statuses[r.sample.Truth.Statement.Reconciliation+" -> "+r.status]++
		for _, f := range r.sample.Features {
			have[f]++
		}
		for _, f := range r.sample.Dropped {
			dropped[f]++
		}
		if r.exact() {
			exact++
			continue
		}
		failSeeds = append(failSeeds, fmt.Sprint(r.sample.Seed))
		if r.status == ledger.ReconcileOK {
			falseOK++
			falseOKSeeds = append(falseOKSeeds, fmt.Sprint(r.sample.Seed))
		}
		for _, f := range r.sample.Features {
			fail[f]++
		}
		writeFailure(t, r)
	}
	p, rc := ratio(M, F), ratio(M, T)
	f1 := 0.0
	if p+rc > 0 {
		f1 = 2 * p * rc / (p + rc)
	}
	n := len(results)
	var b strings.Builder
	fmt.Fprintf(&b, "\n== %s %s: %d statements in %s ==\n", producer, kind, n, took.Round(time.Second))
	fmt.Fprintf(&b, "transactions: truth %d found %d matched %d  precision %.4f recall %.4f F1 %.4f\n", T, F, M, p, rc, f1)
	fmt.Fprintf(&b, "exactly right: %d/%d = %.1f%%   false ok: %d   errors: %d\n", exact, n, 100*ratio(exact, n), falseOK, errs)
	fmt.Fprintf(&b, "status differs from expected: %d   opening balance wrong: %d   closing balance wrong: %d\n", statusDiff, openBad, closeBad)
	pairs := make([]string, 0, len(statuses))
	for k, v := range statuses {
		pairs = append(pairs, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(pairs)
	fmt.Fprintf(&b, "status (expected -> got): %s\n", strings.Join(pairs, ", "))
	if len(dropped) > 0 {
		var ds []string
		for f, k := range dropped {
			ds = append(ds, fmt.Sprintf("%s %d", f, k))
		}
		sort.Strings(ds)
		fmt.Fprintf(&b, "layout features %s could not print (not in those statements' features): %s\n", producer, strings.Join(ds, ", "))
	}
	if len(falseOKSeeds) > 0 {
		fmt.Fprintf(&b, "FALSE OK seeds: %s\n", strings.Join(falseOKSeeds, " "))
	}
	if len(failSeeds) > 0 {
		shown := failSeeds[:min(len(failSeeds), 40)]
		fmt.Fprintf(&b, "failing seeds: %s\n", strings.Join(shown, " "))
		fmt.Fprintf(&b, "failures by feature (failing/with, share failing):\n")
		feats := make([]string, 0, len(have))
		for f := range have {
			feats = append(feats, f)
		}
		sort.Slice(feats, func(i, j int) bool {
			ri, rj := ratio(fail[feats[i]], have[feats[i]]), ratio(fail[feats[j]], have[feats[j]])
			if ri != rj {
				return ri > rj
			}
			return feats[i] < feats[j]
		})
		for _, f := range feats {
			fmt.Fprintf(&b, "  %-26s %4d/%-4d %5.1f%%\n", f, fail[f], have[f], 100*ratio(fail[f], have[f]))
		}
		fmt.Fprintf(&b, "failing samples written to %s\n", *evalOut)
	}
	fmt.Print(b.String())
	if share := ratio(falseOK, n); falseOK > 0 && share > maxFalse {
		t.Errorf("%s %s: %d statements say ok while wrong (seeds %s), more than %.3f of them", producer, kind, falseOK, strings.Join(falseOKSeeds, " "), maxFalse)
	}
	if share := ratio(exact, n); share < minExact {
		t.Errorf("%s %s: %.3f exactly right, want at least %.3f", producer, kind, share, minExact)
	}
	return fmt.Sprintf("%-12s %-6s %5d %7.1f%% %8.4f %9d %7d %8s\n", producer, kind, n, 100*ratio(exact, n), f1, falseOK, errs, took.Round(time.Second))
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// writeFailure saves the input, the truth and what the engine returned.
func writeFailure(t *testing.T, r evalResult) {
	t.Helper()
	base := filepath.Join(*evalOut, fmt.Sprintf("seed-%d-%s-%s", r.sample.Seed, r.sample.Producer, r.kind))
	if len(r.input) > 0 {
		if err := os.WriteFile(base+r.ext, r.input, 0o644); err != nil {
			t.Error(err)
		}
	}
	if r.sample.source != "" {
		if err := os.WriteFile(base+r.sample.sourceExt, []byte(r.sample.source), 0o644); err != nil {
			t.Error(err)
		}
	}
	truth := struct {
		Truth
		Features []string `json:"features"`
		Dropped  []string `json:"features_not_printed,omitempty"`
	}{r.sample.Truth, r.sample.Features, r.sample.Dropped}
	writeJSON(t, base+".truth.json", truth)
	got := map[string]any{"transactions": r.got, "reconciliation": r.status}
	if r.err != nil {
		got["error"] = r.err.Error()
	}
	writeJSON(t, base+".got.json", got)
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Error(err)
	}
}

// inputFor makes the file a kind converts: the PDF itself for text; an
// image-only PDF of degraded page scans for scan (a one-page statement is
// sometimes a small low-resolution PNG instead); a clean PNG of the page
// for png; a JPEG phone photo of the page for photo. Pages are rendered
// with MuPDF, degraded in pure Go, seeded by the sample's seed.
func inputFor(kind string, s Sample) ([]byte, string, error) {
	return imageInput(kind, s.Seed, s.PDF)
}

// imageInput makes the file a kind converts from a statement's PDF,
// degraded by a source seeded with seed.
func imageInput(kind string, seed int64, statement []byte) ([]byte, string, error) {
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	switch kind {
	case "text":
		return statement, ".pdf", nil
	case "scan":
		pages, err := RenderPages(statement, 200)
		if err != nil {
			return nil, "", err
		}
		if len(pages) == 1 && r.IntN(5) == 0 {
			data, _, err := SmallScan(r, pages[0].Img, 200)
			return data, ".png", err
		}
		pdf := fpdf.New("P", "mm", "A4", "")
		pdf.SetCreationDate(epoch)
		pdf.SetModificationDate(epoch)
		pdf.SetAutoPageBreak(false, 0)
		for i, pg := range pages {
			data, o, err := Scan(r, pg.Img, 200)
			if err != nil {
				return nil, "", err
			}
			typ := "JPG"
			if o.Quality == 0 {
				typ = "PNG"
			}
			name := fmt.Sprintf("p%d", i)
			pdf.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: typ}, bytes.NewReader(data))
			// fpdf swaps the size it is given for "L": a page given its
			// own width and height, landscape or not, is "P".
			pdf.AddPageFormat("P", fpdf.SizeType{Wd: pg.W, Ht: pg.H})
			pdf.ImageOptions(name, 0, 0, pg.W, pg.H, false, fpdf.ImageOptions{ImageType: typ}, 0, "")
		}
		var buf bytes.Buffer
		if err := pdf.Output(&buf); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), ".pdf", nil
	case "png":
		pages, err := RenderPages(statement, 150+r.IntN(51))
		if err != nil {
			return nil, "", err
		}
		data, err := EncodePNG(pages[0].Img)
		return data, ".png", err
	case "photo":
		// A phone photographs an A4 page at roughly 200-300 DPI.
		pages, err := RenderPages(statement, 200+r.IntN(51))
		if err != nil {
			return nil, "", err
		}
		data, err := Photo(r, pages[0].Img)
		return data, ".jpg", err
	}
	return nil, "", fmt.Errorf("unknown kind %q", kind)
}
