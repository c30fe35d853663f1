package integrity

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"passbook/extract/ledger"
)

// editors are the tools whose name in a file's metadata says a person
// opened the statement in an editor after the bank made it: online and
// desktop PDF editors that banks do not print with. A name here is medium;
// the office tools that genuine statements also name (Word, Acrobat,
// Nitro's printer) are low (softEditors).
var editors = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)ilovepdf|sejda|smallpdf|pdf24|pdfescape|pdffiller|pdf candy|foxit (pdf editor|phantompdf)|phantompdf|pdfelement|wondershare|pdf-xchange editor|pdf editor|sodapdf|soda pdf|dochub|pdfsimpli|lightpdf|pdfgear|canva|inkscape`)
})

var softEditors = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)acrobat|nitro|microsoft.*word|libreoffice|openoffice|foxit`)
})

// browsers are what a browser's "print to PDF" names.
var browsers = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)skia/pdf|chrom|mozilla|firefox|safari|quartz pdfcontext|microsoft: print to pdf|edge`)
})

// metadata signals what Info and XMP name.
func (r *report) metadata(m meta) {
	named := map[string]string{"Producer": m.producer, "Creator": m.creator, "XMP producer": m.xmpProducer, "XMP creator tool": m.xmpCreator}
	for _, h := range m.history {
		named["XMP history ("+h+")"] = h
	}
	var hard, soft []string
	for _, k := range []string{"Producer", "Creator", "XMP producer", "XMP creator tool"} {
		if v := named[k]; v != "" {
			switch {
			case editors().MatchString(v):
				hard = append(hard, fmt.Sprintf("%s %q", k, v))
			case softEditors().MatchString(v):
				soft = append(soft, fmt.Sprintf("%s %q", k, v))
			}
		}
	}
	for k, v := range named {
		if strings.HasPrefix(k, "XMP history") && editors().MatchString(v) {
			hard = append(hard, k)
		}
	}
	switch {
	case len(hard) > 0:
		r.add(CodeEditorMetadata, ledger.SeverityMedium, 0, nil, "the metadata names a PDF editor: %s", strings.Join(hard, ", "))
	case len(soft) > 0:
		r.add(CodeEditorMetadata, ledger.SeverityLow, 0, nil, "the metadata names an office tool that can edit PDFs: %s (genuine statements are also made with it)", strings.Join(soft, ", "))
	}
	if browsers().MatchString(m.producer) || browsers().MatchString(m.creator) {
		r.add(CodeBrowserPrint, ledger.SeverityInfo, 0, nil, "printed to PDF from a browser (Producer %q, Creator %q): how online statements are often saved", m.producer, m.creator)
	}
	if m.hasXMP && m.xmpProducer != "" && m.producer != "" && ledger.ToolName(m.xmpProducer) != ledger.ToolName(m.producer) {
		r.add(CodeMetadataMismatch, ledger.SeverityMedium, 0, nil, "the Info dictionary's Producer %q and the XMP's %q name different tools: one was rewritten without the other", m.producer, m.xmpProducer)
	}
	c, okc := pdfDate(m.created)
	mod, okm := pdfDate(m.modified)
	if okc && okm && mod.Sub(c) > time.Minute {
		r.add(CodeModifiedLater, ledger.SeverityInfo, 0, nil, "modified %s, after its creation %s", mod.Format(time.RFC3339), c.Format(time.RFC3339))
	}
}

var pdfDateRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?`)
})

// pdfDate reads a PDF date's local part (its zone is ignored: the report
// compares two dates one writer wrote).
func pdfDate(s string) (time.Time, bool) {
	m := pdfDateRe().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}, false
	}
	n := func(i, def int) int {
		if m[i] == "" {
			return def
		}
		v := 0
		fmt.Sscanf(m[i], "%d", &v)
		return v
	}
	return time.Date(n(1, 0), time.Month(n(2, 1)), n(3, 1), n(4, 0), n(5, 0), n(6, 0), 0, time.UTC), true
}

// coveringBoxes finds opaque rectangles drawn over text that was already
// on the page: with new text drawn inside them, the figure was typed over.
func (r *report) coveringBoxes(page int, c pageContent) {
	for _, f := range c.fills {
		w, h := f.box[2]-f.box[0], f.box[3]-f.box[1]
		if !f.opaque || w < 2 || h < 2 || w > 400 || h > 60 {
			continue
		}
		var under, over []glyph
		for _, g := range c.glyphs {
			if !within(g.box, f.box, 1) || strings.TrimSpace(g.text) == "" {
				continue
			}
			if g.seq < f.seq {
				under = append(under, g)
			} else {
				over = append(over, g)
			}
		}
		if len(under) == 0 {
			continue
		}
		b := f.box
		if len(over) > 0 {
			r.add(CodeCoveringBox, ledger.SeverityHigh, page, &b, "an opaque box drawn over %q, with %q typed inside it", glyphText(under), glyphText(over))
		} else {
			r.add(CodeHiddenText, ledger.SeverityLow, page, &b, "an opaque box drawn over %q", glyphText(under))
		}
	}
}

// within reports whether a lies wholly in b grown by pad.
func within(a, b [4]float64, pad float64) bool {
	return a[0] >= b[0]-pad && a[1] >= b[1]-pad && a[2] <= b[2]+pad && a[3] <= b[3]+pad
}

// inside reports whether a's centre lies in b, grown by pad, and a is not
// much larger than b.
func inside(a, b [4]float64, pad float64) bool {
	cx, cy := (a[0]+a[2])/2, (a[1]+a[3])/2
	return cx >= b[0]-pad && cx <= b[2]+pad && cy >= b[1]-pad && cy <= b[3]+pad
}

func glyphText(gs []glyph) string {
	var b strings.Builder
	for i, g := range gs {
		if i > 0 && (g.box[0]-gs[i-1].box[2] > 1.5 || g.box[0] < gs[i-1].box[0]) {
			b.WriteByte(' ')
		}
		b.WriteString(g.text)
	}
	return strings.TrimSpace(b.String())
}

// fontLies reports each font whose ToUnicode map reads a figure as
// another figure than the glyph it draws, where the page draws that
// glyph: in a row's figure whose balance breaks if one does, else in any
// of the rows' figures, else the first.
func (r *report) fontLies(page int, c pageContent, places [][4]float64) {
	best := map[*font]int{}
	var order []*font
	var at = map[*font]glyph{}
	for _, g := range c.glyphs {
		if !g.font.lies[g.code] {
			continue
		}
		rank := len(places)
		for k, p := range places {
			if inside(g.box, p, 0.5) {
				rank = k
				break
			}
		}
		if b, ok := best[g.font]; !ok || rank < b {
			if !ok {
				order = append(order, g.font)
			}
			best[g.font], at[g.font] = rank, g
		}
	}
	for _, f := range order {
		b := at[f].box
		r.add(CodeToUnicode, ledger.SeverityHigh, page, &b, "%s: the text layer says other figures than the page shows", f.lie)
	}
}
