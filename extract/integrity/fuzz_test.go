package integrity

import (
	"strings"
	"testing"

	"passbook/extract/pdf/hostile"
)

// hostileFiles are the attacks extract/pdf resists: page trees whose
// counts lie, loop, nest deep or share kids, and decompression bombs of a
// gigabyte in a content stream and in the object stream that holds the
// catalog.
func hostileFiles() map[string][]byte {
	return map[string][]byte{
		"lying count":  hostile.PageTree(3, 499),
		"deep tree":    hostile.DeepTree(65),
		"wide dag":     hostile.WideDAG(24),
		"content bomb": hostile.FlateBomb(hostile.GiB),
		"catalog bomb": hostile.ProbeBomb(hostile.GiB),
	}
}

// TestHostile: the report on each attack ends, with a summary and nothing
// above a note (the file says nothing of a statement's alteration).
func TestHostile(t *testing.T) {
	for name, data := range hostileFiles() {
		r := Check(Input{Data: data})
		if r.Summary == "" || !strings.HasPrefix(r.Summary, "No sign") {
			t.Errorf("%s: %q", name, r.Summary)
		}
	}
}

// FuzzCheck feeds the report files as an attacker would write them: every
// seed is a statement, re-saved by qpdf, with object streams, linearised,
// forged, or cut short; the fuzzer mutates them. The report must finish
// without a panic (Check would hide one: this calls what it wraps) and
// with a summary.
func FuzzCheck(f *testing.F) {
	st := printStatement(f, 6, 2, "")
	f.Add(st.data)
	f.Add(rewrite(f, st.data, "--object-streams=generate"))
	f.Add(rewrite(f, st.data, "--linearize"))
	f.Add(st.data[:len(st.data)/2])
	if fg, err := newForger(input(f, st.data, st.result)); err == nil {
		if fo, ok := fg.coveringBox(); ok {
			f.Add(fo.data)
		}
	}
	for name, b := range hostileFiles() {
		if !strings.HasSuffix(name, "bomb") { // each run of a bomb takes a quarter second: TestHostile runs them
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &report{}
		out := r.check(Input{Data: data})
		if out.Summary == "" {
			t.Fatal("no summary")
		}
	})
}
