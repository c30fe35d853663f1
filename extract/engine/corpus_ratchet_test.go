//go:build ratchet

package engine

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"passbook/extract/ledger"
)

// TestCorpusRatchet converts every file of every corpus set and holds
// them to the committed baseline: no file that was exactly
// right may stop being so, and no file may say ok while wrong. A file that
// is newly right fails too, until the baseline moves up with it (`make
// ratchet UPDATE=1`), so the baseline only ever moves up.
func TestCorpusRatchet(t *testing.T) {
	dir := corpusDir(t)
	results := evalCorpus(t, dir, corpusSets, ratchetKinds, "")
	t.Logf("corpus ratchet, kinds %s:\n%s", strings.Join(ratchetKinds, ","), corpusTable(results))
	base, err := readBaseline(baselinePath)
	if err != nil && !*updateBaseline {
		t.Fatalf("baseline: %v", err)
	}
	if *updateBaseline {
		next := nextBaseline(base, results, *lowerBaseline)
		if err := writeBaseline(baselinePath, next); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", baselinePath)
		base = next
	}
	regressions, gains := ratchet(base, results)
	for _, r := range regressions {
		t.Errorf("regression: %s", r)
	}
	for _, g := range gains {
		t.Errorf("%s: move the baseline up with `make ratchet UPDATE=1`", g)
	}

	// The ratchet itself, on a temporary copy of the baseline changed as a
	// regression and a gain would change it.
	t.Run("catches a regression", func(t *testing.T) {
		var right, wrong *corpusResult
		for i := range results {
			switch r := &results[i]; {
			case r.exact() && r.entry.Kind != "negative" && right == nil:
				right = r
			case !r.exact() && wrong == nil:
				wrong = r
			}
		}
		if right == nil {
			t.Fatal("no corpus statement is exactly right")
		}
		copyPath := filepath.Join(t.TempDir(), "baseline.json")
		if err := writeBaseline(copyPath, base); err != nil {
			t.Fatal(err)
		}
		changed, err := readBaseline(copyPath)
		if err != nil {
			t.Fatal(err)
		}
		// Pretend the right file used to be wrong, and (if there is one) a
		// wrong file used to be right.
		changed[right.key()] = baselineEntry{Exact: false, Status: right.status()}
		if wrong != nil {
			changed[wrong.key()] = baselineEntry{Exact: true, Status: ledger.ReconcileOK}
		}
		if err := writeBaseline(copyPath, changed); err != nil {
			t.Fatal(err)
		}
		reread, err := readBaseline(copyPath)
		if err != nil {
			t.Fatal(err)
		}
		regressions, gains := ratchet(reread, results)
		if wrong != nil && !slices.ContainsFunc(regressions, func(s string) bool { return strings.HasPrefix(s, wrong.key()+": was exactly right") }) {
			t.Errorf("a file the baseline holds as right and that is wrong was not reported: %q", regressions)
		}
		if !slices.ContainsFunc(gains, func(s string) bool { return strings.HasPrefix(s, right.key()+":") }) {
			t.Errorf("a file right now that the baseline holds as wrong was not reported: %q", gains)
		}
		// Updating without -lower-baseline keeps the wrong file as right.
		if wrong != nil {
			if next := nextBaseline(reread, results, false); !next[wrong.key()].Exact {
				t.Errorf("an update lowered %s without -lower-baseline", wrong.key())
			}
			if next := nextBaseline(reread, results, true); next[wrong.key()].Exact {
				t.Errorf("an update with -lower-baseline kept %s as right", wrong.key())
			}
		}
		// A file that says ok while wrong is a regression whatever the
		// baseline says.
		if wrong != nil {
			res := *wrong.res
			res.Statement.Reconciliation.Status = ledger.ReconcileOK
			liar := *wrong
			liar.res = &res
			if regressions, _ := ratchet(reread, []corpusResult{liar}); !slices.ContainsFunc(regressions, func(s string) bool { return strings.Contains(s, "says ok while wrong") }) {
				t.Errorf("a file that says ok while wrong was not reported: %q", regressions)
			}
		}
		// A file missing from the baseline is a regression.
		delete(reread, right.key())
		if regressions, _ := ratchet(reread, results); !slices.ContainsFunc(regressions, func(s string) bool { return strings.HasPrefix(s, right.key()+": not in the baseline") }) {
			t.Errorf("a file missing from the baseline was not reported: %q", regressions)
		}
	})
}
