//go:build forgery

package integrity

import (
	"encoding/json"
	"os"
	"testing"
)

// TestLazyCorpus: on every genuine text PDF of the corpus, the lazy read
// makes the report the whole read makes, and says how many files it read
// lazily (the rest pdfcpu read whole: encrypted, or a broken chain).
func TestLazyCorpus(t *testing.T) {
	lazy, n := 0, 0
	for _, cf := range genuineFiles(t) {
		data, err := os.ReadFile(cf.path)
		if err != nil {
			t.Fatal(err)
		}
		res, pages, err := convert(data)
		if err != nil {
			continue
		}
		n++
		if f, err := readPDF(data, "", false); err == nil && f.lazy != nil {
			lazy++
		} else if _, err := readLazy(data); err != nil {
			t.Logf("%s: read whole (%v)", cf.path, err)
		}
		in := Input{Data: data, Pages: pages, Result: res}
		a, _ := json.Marshal((&report{}).check(in))
		b, _ := json.Marshal((&report{whole: true}).check(in))
		if string(a) != string(b) {
			t.Errorf("%s: the lazy read reports\n%s\nwhere the whole read reports\n%s", cf.path, a, b)
		}
	}
	t.Logf("%d of %d genuine files read lazily", lazy, n)
}
