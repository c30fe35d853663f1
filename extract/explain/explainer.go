package explain

import (
	"fmt"
	"io"

	"passbook/extract/layout"
)

// explainer writes what the analysis weighed, for `passbook extract
// --explain`: the tables found on each page, each column's role and why,
// the readings tried with their arithmetic scores, and the lines left out
// and why. A nil explainer writes nothing, so the analysis calls it
// unconditionally.
type Writer struct {
	W io.Writer
}

func (x *Writer) On() bool { return x != nil && x.W != nil }

func (x *Writer) Printf(format string, args ...any) {
	if x.On() {
		fmt.Fprintf(x.W, format+"\n", args...)
	}
}

// lineRef names a line for a person: its page, height and text.
func LineRef(l *layout.Line) string {
	t := l.Text()
	if len(t) > 90 {
		t = t[:87] + "..."
	}
	return fmt.Sprintf("p%d y%.0f %q", l.Page+1, l.Y0, t)
}
