package extract

import (
	"fmt"
	"io"
	"strings"

	"passbook/extract/layout"
	"passbook/extract/source"
)

// explainer writes what the analysis weighed, for `passbook extract
// --explain`: the tables found on each page, each column's role and why,
// the readings tried with their arithmetic scores, and the lines left out
// and why. A nil explainer writes nothing, so the analysis calls it
// unconditionally.
type explainer struct {
	w io.Writer
}

func (x *explainer) on() bool { return x != nil && x.w != nil }

func (x *explainer) printf(format string, args ...any) {
	if x.on() {
		fmt.Fprintf(x.w, format+"\n", args...)
	}
}

// Explain is Analyze that also writes to w, for a person, how the
// document was read.
func Explain(pages []source.Page, w io.Writer) *Result {
	return AnalyzeDocument(Document{Pages: pages}, w)
}

// labelsText lists a heading's labels with their roles.
func labelsText(labels []label) string {
	parts := make([]string, len(labels))
	for i, lb := range labels {
		parts[i] = fmt.Sprintf("%q@%.0f-%.0f=%s", lb.text, lb.x0, lb.x1, lb.role)
	}
	return strings.Join(parts, " | ")
}

// lineRef names a line for a person: its page, height and text.
func lineRef(l *layout.Line) string {
	t := l.Text()
	if len(t) > 90 {
		t = t[:87] + "..."
	}
	return fmt.Sprintf("p%d y%.0f %q", l.Page+1, l.Y0, t)
}
