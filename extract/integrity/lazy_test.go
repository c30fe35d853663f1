package integrity

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestLazyReadsAsWhole: the lazy read (lazy.go) makes the same report as
// reading every object up front does, on a statement as printed, re-saved
// (qpdf: a classic table; with object streams and a cross-reference
// stream; linearised), annotated, and forged with and without an
// incremental update; and the lazy read is the one taken.
func TestLazyReadsAsWhole(t *testing.T) {
	st := printStatement(t, 12, 2, "")
	files := map[string][]byte{
		"as printed":  st.data,
		"qpdf":        rewrite(t, st.data),
		"linearised":  rewrite(t, st.data, "--linearize"),
		"object-strm": rewrite(t, st.data, "--object-streams=generate"),
	}
	fg, err := newForger(input(t, st.data, st.result))
	if err != nil {
		t.Fatal(err)
	}
	files["annotated"] = fg.annotate()
	// A comment in the trailer, as ReportLab writes.
	files["trailer comment"] = bytes.Replace(st.data, []byte("trailer\n<<"), []byte("trailer\n<<\n% a writer's comment (with a parenthesis\n"), 1)
	if bytes.Equal(files["trailer comment"], st.data) {
		t.Fatal("no trailer to comment")
	}
	for name, forge := range map[string]func(fg *forger) (forgery, bool){
		"incremental amount": func(fg *forger) (forgery, bool) { return fg.amountEdited(true) },
		"covering box":       (*forger).coveringBox,
		"new font":           (*forger).newFontCell,
		"tounicode":          (*forger).toUnicodeEdited,
		"editor":             func(fg *forger) (forgery, bool) { return fg.editorMetadata("iLovePDF") },
	} {
		fg, err := newForger(input(t, st.data, st.result))
		if err != nil {
			t.Fatal(err)
		}
		fo, ok := forge(fg)
		if !ok {
			t.Fatalf("%s: the forger made nothing", name)
		}
		files[name] = fo.data
		files[name+", object streams"] = rewrite(t, fo.data, "--object-streams=generate")
	}
	for name, data := range files {
		f, err := readPDF(data, "", false)
		if err != nil || f.lazy == nil {
			t.Errorf("%s: not read lazily (%v)", name, err)
			continue
		}
		in := input(t, data, st.result)
		lazy, _ := json.Marshal((&report{}).check(in))
		whole, _ := json.Marshal((&report{whole: true}).check(in))
		if string(lazy) != string(whole) {
			t.Errorf("%s: the lazy read reports\n%s\nwhere the whole read reports\n%s", name, lazy, whole)
		}
	}
}
