//go:build eval

package redact_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"passbook/extract/redact"
)

// TestRedactCorpus is `make redact-eval`: a copy of every text statement
// of the corpus, with how many were copied, how many refused and why.
// A copy is written only when its reading matches the original's, so
// the copied are the matching. It fails when a written copy's text still
// holds a long number of the original's (six digits or more, in a word
// that is no amount and no date: an account, card, reference or
// telephone number).
func TestRedactCorpus(t *testing.T) {
	dir := os.Getenv("CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpus")
	}
	sets, err := filepath.Glob(filepath.Join(dir, "*", "manifest.json"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("the redact evaluation needs the statement corpus (set CORPUS, default ../shared/corpus beside the repository): %v", err)
	}
	outDir := os.Getenv("REDACT_OUT")
	// REDACT_SEED moves every copy's seed (its factor and letters), to
	// see how much the share depends on the draw.
	base, _ := strconv.ParseUint(os.Getenv("REDACT_SEED"), 10, 64)
	// REDACT_WEEKS=N moves every date by N weeks (--shift-weeks).
	weeks, _ := strconv.Atoi(os.Getenv("REDACT_WEEKS"))
	// REDACT_KINDS=images copies the corpus's scans and photos (kinds
	// scan_pdf, png, photo_jpg) instead of its text PDFs; all, both.
	kinds := map[string]bool{"text_pdf": true}
	switch os.Getenv("REDACT_KINDS") {
	case "images":
		kinds = map[string]bool{"scan_pdf": true, "png": true, "photo_jpg": true}
	case "all":
		kinds = map[string]bool{"text_pdf": true, "scan_pdf": true, "png": true, "photo_jpg": true}
	}
	// REDACT_ONLY=regexp copies only the files whose set/name it matches.
	only := regexp.MustCompile(os.Getenv("REDACT_ONLY"))
	// A scan's reading is recognition, seconds a page: each file's and
	// each copy's reading is kept, for the check of long numbers below.
	read := memoRead(read)
	total, copied, longNumbers := 0, 0, 0
	byKind := map[string][2]int{}
	reasons := map[string][]string{}
	digits := regexp.MustCompile(`[0-9]+`)
	for _, m := range sets {
		var entries []struct{ File, Kind, Truth string }
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &entries); err != nil {
			t.Fatal(err)
		}
		set := filepath.Base(filepath.Dir(m))
		for _, e := range entries {
			key := set + "/" + e.File
			if !kinds[e.Kind] || !only.MatchString(key) {
				continue
			}
			total++
			kc := byKind[e.Kind]
			kc[0]++
			byKind[e.Kind] = kc
			data, err := os.ReadFile(filepath.Join(filepath.Dir(m), e.File))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			out, side, err := redact.Copy(data, read, redact.Options{Seed: base + uint64(total), ShiftWeeks: weeks})
			if e.Kind != "text_pdf" {
				fmt.Printf("  %s (%s): %v, %s\n", key, e.Kind, err, time.Since(start).Round(time.Second))
			}
			if err != nil {
				why := err.Error()
				var re *redact.RefusedError
				if errors.As(err, &re) {
					why = re.Reason
				}
				class := digits.ReplaceAllString(why, "N")
				if i := strings.IndexAny(class, "\"("); i > 0 {
					class = class[:i]
				}
				reasons[class] = append(reasons[class], key+": "+why)
				continue
			}
			copied++
			kc = byKind[e.Kind]
			kc[1]++
			byKind[e.Kind] = kc
			if e.Kind != "text_pdf" && (!side.Scan || side.Fidelity == "") {
				t.Errorf("%s: the sidecar of a scan's copy does not say it is less faithful: %+v", key, side)
			}
			left, n := longNumbersLeft(t, read, data, out)
			longNumbers += n
			if len(left) > 0 {
				t.Errorf("%s: the copy still holds %v", key, left)
			}
			if outDir != "" {
				_ = os.MkdirAll(filepath.Join(outDir, set), 0o755)
				_ = os.WriteFile(filepath.Join(outDir, set, e.File), out, 0o644)
			}
		}
	}
	fmt.Printf("redact: %d statements, %d copied (%.1f%%; each reads as its original), %d refused; the copies' originals print %d long numbers (6+ digits, no amount, no date), checked absent from the copies\n",
		total, copied, 100*float64(copied)/float64(max(total, 1)), total-copied, longNumbers)
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		fmt.Printf("  %-9s %d of %d copied\n", k, byKind[k][1], byKind[k][0])
	}
	var classes []string
	for c := range reasons {
		classes = append(classes, c)
	}
	sort.Slice(classes, func(i, j int) bool { return len(reasons[classes[i]]) > len(reasons[classes[j]]) })
	for _, c := range classes {
		fmt.Printf("  %3d  %s\n", len(reasons[c]), c)
		for _, r := range reasons[c] {
			fmt.Printf("         %s\n", r)
		}
	}
}

// longNumbersLeft are the original's runs of six digits or more, outside
// amounts and dates, that the copy's text still holds, and how many the
// original printed.
func longNumbersLeft(t *testing.T, read redact.Reader, orig, cp []byte) ([]string, int) {
	t.Helper()
	o, err := read(orig, "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := read(cp, "")
	if err != nil {
		t.Fatal(err)
	}
	runs := regexp.MustCompile(`[0-9]{6,}`)
	money := regexp.MustCompile(`^[-+(]?[0-9][0-9., ']*[.,][0-9]{2}\)?$`)
	var text strings.Builder
	for _, pg := range c.Doc.Pages {
		for _, w := range pg.Words {
			text.WriteString(w.Text + "\n")
		}
	}
	var left []string
	n := 0
	for _, pg := range o.Doc.Pages {
		for _, w := range pg.Words {
			if money.MatchString(w.Text) || strings.ContainsAny(w.Text, "/") {
				continue
			}
			for _, r := range runs.FindAllString(w.Text, -1) {
				n++
				if strings.Contains(text.String(), r) {
					left = append(left, r)
				}
			}
		}
	}
	return left, n
}
