package extract

import (
	"fmt"
	"io"
	"strings"

	"passbook/extract/source"
)

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
