package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passbook/extract/ledger"
)

// TestExtractManyErrors: a file that cannot be converted fails alone (exit
// status 2, the others written); a directory or several files need -d or
// --combine; the two do not go together.
func TestExtractManyErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.MkdirAll(filepath.Join(in, ".hidden"), 0o755)
	sample, err := os.ReadFile("testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"march.pdf":          sample,
		"broken.pdf":         []byte("%PDF-1.4\nthis is no PDF"),
		"notes.txt":          []byte("not a statement, left alone"),
		".hidden/secret.pdf": []byte("%PDF-1.4\nhidden, left alone"),
	} {
		if err := os.WriteFile(filepath.Join(in, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := exitCode(t, mainCmd(dir, nil, "extract", "--format", "csv", "-d", "out", "in"))
	if code != exitNotConverted || !strings.Contains(stderr, "failed in/broken.pdf") || !strings.Contains(stderr, "1 of 2 files could not be converted") ||
		strings.Contains(stderr, "secret") || strings.Contains(stderr, "notes") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out", "march.csv")); err != nil || !bytes.HasPrefix(b, []byte("date,type")) {
		t.Errorf("march.csv: %v %.40q", err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "broken.csv")); !os.IsNotExist(err) {
		t.Errorf("an output for the file that failed: %v", err)
	}
	for _, args := range [][]string{
		{"extract", "in"},
		{"extract", "in/march.pdf", "in/broken.pdf"},
		{"extract", "-d", "out", "--combine", "in"},
		{"extract", "-d", "out", "-o", "x.csv", "in"},
		{"extract", "--combine", "-o", "x.csv", "nowhere"},
	} {
		code, _, stderr := exitCode(t, mainCmd(dir, nil, args...))
		if code != exitFailed || !strings.HasPrefix(stderr, "passbook: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 1 and one line", args, code, stderr)
		}
	}
}

// TestProgressBar draws the bar as a terminal would see it.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, 4)
	p.terminal = true
	p.pages("a.pdf")(2, 3)
	ok := &ledger.Result{PageCount: 3}
	p.done(batchResult{in: batchInput{path: "a.pdf"}, res: ok})
	p.done(batchResult{in: batchInput{path: "b.pdf"}, err: os.ErrNotExist})
	p.stop()
	out := buf.String()
	for _, want := range []string{
		"[" + strings.Repeat("#", 7) + strings.Repeat("-", 23) + "] 1/4 files, 3 pages",
		"\r\033[Kfailed b.pdf: file does not exist\n",
		"[" + strings.Repeat("#", 15) + strings.Repeat("-", 15) + "] 2/4 files, 3 pages"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar lacks %q:\n%q", want, out)
		}
	}
	if !strings.HasSuffix(out, "\n") || strings.Contains(out, "[1/4]") {
		t.Errorf("on a terminal the bar is redrawn in place, not a line per file:\n%q", out)
	}
}
