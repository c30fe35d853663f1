package synth

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
)

// A statement written as a flat OpenDocument text (.fodt) for LibreOffice
// to convert, in one of two ways an office document lays out a table: a
// real table (odt-table), whose heading row repeats on every page, or one
// paragraph per line with a tab stop per column (odt-tabs). Writer breaks
// the pages: the footer (legal text, "Page N of M") and a later page's
// heading are the page styles', and there are no carried-forward rows.
// Unless rows-split, a row is kept on one page.

// odtStyle is how one sample is written.
type odtStyle struct {
	mode  string // odt-table, odt-tabs
	split bool   // a row may break over two pages, as Writer lets it
	face  face
	fit   float64
	scale float64
}

// chooseODT draws a sample's document style from its seed, and says which
// of the layout's features it cannot print.
func chooseODT(s Sample) (st odtStyle, feats, dropped []string) {
	r := rand.New(rand.NewPCG(uint64(s.Seed), 0x6f6666696365))
	st.mode = pickOne(r, []string{"odt-table", "odt-table", "odt-tabs"})
	// Writer names fonts: a web-safe name it does not have (Verdana) is
	// not a face to measure.
	for {
		st.face = pickFace(r, s.layout.Font, false)
		if !st.face.system || st.face.metric {
			break
		}
	}
	st.split = r.IntN(4) == 0
	st.scale = 1
	feats = append([]string{st.mode}, st.face.features(false)...)
	if st.split {
		feats = append(feats, "rows-split")
	}
	// Writer lays out whole strings and breaks its own pages.
	dropped = []string{"glyph-by-glyph", "carried-forward"}
	if st.mode == "odt-tabs" {
		dropped = append(dropped, "grid-lines")
	}
	return st, feats, dropped
}

// odtWriter writes one sample's document.
type odtWriter struct {
	t     *trace
	l     Layout
	st    odtStyle
	k     float64 // size factor
	fs    float64 // the table's font size, pt
	lh    float64 // a table line, mm
	body  strings.Builder
	names map[string]string // style definition -> name
	defs  []string
	n     int // tables written
}

// fodt writes the sample as a flat OpenDocument text in style st.
func (s Sample) fodt(st odtStyle) string {
	w := &odtWriter{t: s.trace, l: s.layout, st: st, names: map[string]string{}}
	w.k = st.fit * st.scale
	w.fs = s.trace.fontSize * w.k
	w.lh = s.trace.lh * w.k
	return w.write(s.layout.Lang)
}

func (w *odtWriter) p(format string, args ...any) { fmt.Fprintf(&w.body, format, args...) }

// style returns the name of an automatic style of a family with these
// properties (ODF elements), defining it on first use.
func (w *odtWriter) style(family, props string) string {
	key := family + "|" + props
	if n, ok := w.names[key]; ok {
		return n
	}
	n := fmt.Sprintf("%s%d", strings.ToUpper(family[:1]), len(w.names)+1)
	w.names[key] = n
	extra := ""
	if family == "paragraph" {
		extra = ` style:parent-style-name="Standard"`
	}
	w.defs = append(w.defs, fmt.Sprintf(`<style:style style:name="%s" style:family="%s"%s>%s</style:style>`, n, family, extra, props))
	return n
}

// para is a paragraph style: alignment, size, weight, fixed line height
// and space under it, plus more paragraph properties (attributes, then
// any <style:tab-stops>).
func (w *odtWriter) para(right, bold bool, size, line, below float64, more string) string {
	pp := fmt.Sprintf(`fo:line-height="%s" fo:margin-bottom="%s"`, mm(line), mm(below))
	if !strings.Contains(more, "fo:margin-top") {
		pp += ` fo:margin-top="0mm"`
	}
	if right {
		pp += ` fo:text-align="end"`
	}
	tp := fmt.Sprintf(`fo:font-size="%s"`, pt(size))
	if bold {
		tp += ` fo:font-weight="bold"`
	}
	tabs := ""
	if i := strings.Index(more, "<style:tab-stops>"); i >= 0 {
		more, tabs = more[:i], more[i:]
	}
	return w.style("paragraph", fmt.Sprintf(`<style:paragraph-properties %s %s>%s</style:paragraph-properties><style:text-properties %s/>`, pp, more, tabs, tp))
}

var spaces = regexp.MustCompile(`  +`)

// text escapes s for ODF, keeping runs of spaces.
func odfText(s string) string {
	s = esc(s)
	return spaces.ReplaceAllStringFunc(s, func(m string) string {
		return fmt.Sprintf(` <text:s text:c="%d"/>`, len(m)-1)
	})
}

func odfLines(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = odfText(l)
	}
	return strings.Join(out, "<text:line-break/>")
}

// countries are the country of each layout language.
var countries = map[string]string{"en": "GB", "de": "DE", "fr": "FR", "es": "ES", "it": "IT", "nl": "NL", "pt": "PT"}

func (w *odtWriter) write(lang string) string {
	t := w.t
	for _, parts := range t.sheets(false) {
		for _, pa := range parts {
			if pa.header != nil {
				if w.st.mode == "odt-table" {
					w.table(pa)
				} else {
					w.tabs(pa)
				}
				continue
			}
			w.block(pa.block)
		}
	}
	body := w.body.String()
	wmPara := w.style("paragraph", `<style:paragraph-properties fo:line-height="1mm"/><style:text-properties fo:font-size="1pt"/>`)
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">` + "\n")
	p(`<office:font-face-decls><style:font-face style:name="Statement" svg:font-family="&apos;%s&apos;" style:font-family-generic="%s"/></office:font-face-decls>`+"\n",
		esc(w.st.face.family), map[string]string{"sans-serif": "swiss", "serif": "roman", "monospace": "modern"}[w.st.face.generic])
	ll := [2]string{lang, countries[lang]}
	p(`<office:styles><style:default-style style:family="paragraph"><style:paragraph-properties fo:margin-top="0mm" fo:margin-bottom="0mm"/><style:text-properties style:font-name="Statement" fo:font-size="%s" fo:language="%s" fo:country="%s" fo:hyphenate="false"/></style:default-style>`,
		pt(w.fs), ll[0], ll[1])
	p(`<style:style style:name="Standard" style:family="paragraph"/></office:styles>` + "\n")
	// Styles of the page furniture, defined before they are written out.
	foot := w.para(false, false, 6.5*w.k, 2.8, 0, `fo:color="#5a5a5a"`)
	footR := w.para(true, false, 6.5*w.k, 2.8, 0, "")
	headBank := w.para(false, true, 11*w.k, 5, 0, "")
	headLine := w.para(false, false, 7.5*w.k, 3.5, 3, "")
	footTab := w.style("table", fmt.Sprintf(`<style:table-properties style:width="%s" table:align="left"/>`, mm(t.right-t.left)))
	footCol1 := w.style("table-column", fmt.Sprintf(`<style:table-column-properties style:column-width="%s"/>`, mm(t.pageW-2*t.left-30)))
	footCol2 := w.style("table-column", fmt.Sprintf(`<style:table-column-properties style:column-width="%s"/>`, mm(t.right-t.left-(t.pageW-2*t.left-30))))
	wm := ""
	if t.watermark != "" {
		wm = w.watermark()
	}
	p("<office:automatic-styles>\n")
	orient := "portrait"
	if t.pageW > t.pageH {
		orient = "landscape"
	}
	p(`<style:page-layout style:name="Page"><style:page-layout-properties fo:page-width="%s" fo:page-height="%s" style:print-orientation="%s" fo:margin-top="10mm" fo:margin-bottom="8mm" fo:margin-left="%s" fo:margin-right="%s"/>`,
		mm(t.pageW), mm(t.pageH), orient, mm(t.left), mm(t.pageW-t.right))
	p(`<style:header-style><style:header-footer-properties fo:min-height="0mm" fo:margin-bottom="2mm"/></style:header-style><style:footer-style><style:header-footer-properties fo:min-height="8mm" fo:margin-top="4mm"/></style:footer-style></style:page-layout>` + "\n")
	for _, d := range w.defs {
		p("%s\n", d)
	}
	p(`<style:style style:name="Start" style:family="paragraph" style:parent-style-name="Standard" style:master-page-name="First"><style:paragraph-properties fo:line-height="0.5mm"/><style:text-properties fo:font-size="1pt"/></style:style>` + "\n")
	p("</office:automatic-styles>\n<office:master-styles>\n")
	footer := fmt.Sprintf(`<style:footer><table:table table:name="Footer" table:style-name="%s"><table:table-column table:style-name="%s"/><table:table-column table:style-name="%s"/><table:table-row><table:table-cell office:value-type="string"><text:p text:style-name="%s">%s</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p text:style-name="%s">%s <text:page-number text:select-page="current">1</text:page-number> %s <text:page-count>1</text:page-count></text:p></table:table-cell></table:table-row></table:table></style:footer>`,
		footTab, footCol1, footCol2, foot, odfText(t.legal), footR, odfText(t.pageWord), odfText(t.ofWord))
	p(`<style:master-page style:name="First" style:page-layout-name="Page" style:next-style-name="Rest"><style:header><text:p text:style-name="%s">%s</text:p></style:header>%s</style:master-page>`+"\n", wmPara, wm, footer)
	p(`<style:master-page style:name="Rest" style:page-layout-name="Page"><style:header><text:p text:style-name="%s">%s%s</text:p><text:p text:style-name="%s">%s</text:p></style:header>%s</style:master-page>`+"\n",
		headBank, wm, odfText(t.bank), headLine, odfText(t.headLine), footer)
	p("</office:master-styles>\n<office:body><office:text>\n")
	// The first paragraph starts the first page's style.
	p(`<text:p text:style-name="Start"/>` + "\n")
	p("%s</office:text></office:body></office:document>\n", body)
	return b.String()
}

// watermark is a light rotated word, drawn in the page heading so that it
// stands on every page.
func (w *odtWriter) watermark() string {
	t := w.t
	gr := w.style("graphic", `<style:graphic-properties draw:stroke="none" draw:fill="none" draw:textarea-horizontal-align="center" draw:textarea-vertical-align="middle" style:wrap="run-through" style:run-through="background" fo:padding="0mm"/>`)
	tp := w.style("paragraph", fmt.Sprintf(`<style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="%s" fo:font-weight="bold" fo:color="#d7d7d7"/>`, pt(70*w.k)))
	width, height := 200.0, 30.0
	// Rotated by 35 degrees about the page's centre.
	return fmt.Sprintf(`<draw:custom-shape text:anchor-type="page" draw:z-index="0" draw:style-name="%s" svg:width="%s" svg:height="%s" draw:transform="rotate (0.6109) translate (%s %s)"><text:p text:style-name="%s"><text:span>%s</text:span></text:p><draw:enhanced-geometry svg:viewBox="0 0 21600 21600" draw:type="rectangle"/></draw:custom-shape>`,
		gr, mm(width), mm(height), mm(t.pageW/2-width/2*0.819-height/2*0.574), mm(t.pageH/2+width/2*0.574-height/2*0.819), tp, odfText(t.watermark))
}

func (w *odtWriter) block(b block) {
	t := w.t
	switch b := b.(type) {
	case letterheadBlock:
		half := (t.right - t.left) / 2
		tab := w.style("table", fmt.Sprintf(`<style:table-properties style:width="%s" table:align="left" fo:margin-bottom="3mm"/>`, mm(t.right-t.left)))
		col := w.style("table-column", fmt.Sprintf(`<style:table-column-properties style:column-width="%s"/>`, mm(half)))
		cell := w.style("table-cell", `<style:table-cell-properties fo:padding="0mm" style:vertical-align="top"/>`)
		var bank, title strings.Builder
		fmt.Fprintf(&bank, `<text:p text:style-name="%s">%s</text:p>`, w.para(false, true, 14*w.k, 6, 0, ""), odfText(b.bank))
		for _, a := range b.address {
			fmt.Fprintf(&bank, `<text:p text:style-name="%s">%s</text:p>`, w.para(false, false, 7.5*w.k, 3.4, 0, ""), odfText(a))
		}
		fmt.Fprintf(&title, `<text:p text:style-name="%s">%s</text:p>`, w.para(false, true, 10*w.k, 5, 0, ""), odfText(b.title))
		for _, a := range b.info {
			fmt.Fprintf(&title, `<text:p text:style-name="%s">%s</text:p>`, w.para(false, false, 8*w.k, 3.8, 0, ""), odfText(a))
		}
		l, r := bank.String(), title.String()
		if b.bankRight {
			l, r = r, l
		}
		w.n++
		w.p(`<table:table table:name="Letterhead" table:style-name="%s"><table:table-column table:style-name="%s" table:number-columns-repeated="2"/><table:table-row><table:table-cell table:style-name="%s" office:value-type="string">%s</table:table-cell><table:table-cell table:style-name="%s" office:value-type="string">%s</table:table-cell></table:table-row></table:table>`+"\n",
			tab, col, cell, l, cell, r)
		hp := w.para(false, false, 8.5*w.k, 4, 0, "")
		w.p(`<text:p text:style-name="%s">%s</text:p><text:p text:style-name="%s">%s</text:p>`+"\n", hp, odfText(b.holder[0]), w.para(false, false, 8.5*w.k, 4, 5, ""), odfText(b.holder[1]))
	case pageHeadBlock:
		// The page style's heading.
	case accountHeadBlock:
		w.p(`<text:p text:style-name="%s">%s</text:p>`+"\n", w.para(false, true, 9.5*w.k, 5, 2, fmt.Sprintf(`fo:margin-top="%s"`, mm(w.lh*2))), odfText(b.text))
	case boxBlock:
		w.n++
		tab := w.style("table", `<style:table-properties style:width="90mm" table:align="left" fo:margin-top="1mm" fo:margin-bottom="4mm"/>`)
		cols := [2]string{w.style("table-column", `<style:table-column-properties style:column-width="55mm"/>`), w.style("table-column", `<style:table-column-properties style:column-width="35mm"/>`)}
		border := "0.3mm solid #969696"
		w.p(`<table:table table:name="Box%d" table:style-name="%s"><table:table-column table:style-name="%s"/><table:table-column table:style-name="%s"/>`, w.n, tab, cols[0], cols[1])
		for i, kv := range b.rows {
			var sides [2]string
			for j := range 2 {
				props := `fo:padding-left="2mm" fo:padding-right="2mm" fo:padding-top="0.3mm" fo:padding-bottom="0.3mm"`
				if i == 0 {
					props += ` fo:border-top="` + border + `"`
				}
				if i == len(b.rows)-1 {
					props += ` fo:border-bottom="` + border + `"`
				}
				if j == 0 {
					props += ` fo:border-left="` + border + `"`
				} else {
					props += ` fo:border-right="` + border + `"`
				}
				sides[j] = w.style("table-cell", `<style:table-cell-properties `+props+`/>`)
			}
			w.p(`<table:table-row><table:table-cell table:style-name="%s" office:value-type="string"><text:p text:style-name="%s">%s</text:p></table:table-cell><table:table-cell table:style-name="%s" office:value-type="string"><text:p text:style-name="%s">%s</text:p></table:table-cell></table:table-row>`,
				sides[0], w.para(false, false, 8.5*w.k, 3.8, 0, ""), odfText(kv[0]), sides[1], w.para(true, false, 8.5*w.k, 3.8, 0, ""), odfText(kv[1]))
		}
		w.p("</table:table>\n")
	case titleBlock:
		w.p(`<text:p text:style-name="%s">%s</text:p>`+"\n", w.para(false, true, w.fs+1.5*w.k, w.lh*1.4, w.lh*0.6, fmt.Sprintf(`fo:margin-top="%s"`, mm(w.lh))), odfText(b.text))
	case feesBlock:
		w.p(`<text:p text:style-name="%s">%s</text:p>`+"\n", w.para(false, true, w.fs+w.k, w.lh*1.4, w.lh*0.6, fmt.Sprintf(`fo:margin-top="%s"`, mm(w.lh*2))), odfText(b.title))
		ps := w.para(false, false, w.fs, w.lh*1.4, 0, fmt.Sprintf(`fo:margin-left="1mm" <style:tab-stops><style:tab-stop style:position="%s" style:type="right"/></style:tab-stops>`, mm(108)))
		for _, kv := range b.items {
			w.p(`<text:p text:style-name="%s">%s<text:tab/>%s</text:p>`+"\n", ps, odfText(kv[0]), odfText(kv[1]))
		}
	}
}

// table writes a header and its rows as a table.
func (w *odtWriter) table(pa part) {
	t := w.t
	w.n++
	tab := w.style("table", fmt.Sprintf(`<style:table-properties style:width="%s" table:align="left" fo:margin-bottom="2mm"/>`, mm(t.right-t.left)))
	w.p(`<table:table table:name="Table%d" table:style-name="%s">`, w.n, tab)
	for _, c := range t.cols {
		w.p(`<table:table-column table:style-name="%s"/>`, w.style("table-column", fmt.Sprintf(`<style:table-column-properties style:column-width="%s"/>`, mm(c.w))))
	}
	cell := func(i int, bottom float64, va, extra string) string {
		props := fmt.Sprintf(`fo:padding-left="1mm" fo:padding-right="1.5mm" fo:padding-top="0mm" fo:padding-bottom="%s" style:vertical-align="%s"%s`, mm(bottom), va, extra)
		if w.l.Grid && i > 0 && !strings.Contains(extra, "border-bottom=\"0.2mm solid #000000\"") {
			props += ` fo:border-left="0.2mm solid #787878"`
		}
		return w.style("table-cell", `<style:table-cell-properties `+props+`/>`)
	}
	h := pa.header
	w.p("<table:table-header-rows><table:table-row>")
	for i, c := range t.cols {
		extra := ` fo:border-bottom="0.2mm solid #000000"`
		if h.shaded {
			extra += ` fo:background-color="#e1e1e1"`
		}
		w.p(`<table:table-cell table:style-name="%s" office:value-type="string"><text:p text:style-name="%s">%s</text:p></table:table-cell>`,
			cell(i, w.lh*0.45, "bottom", extra), w.para(c.right, true, w.fs, w.lh, 0, ""), odfLines(h.labels[i]))
	}
	w.p("</table:table-row></table:table-header-rows>\n")
	row := ""
	if !w.st.split {
		row = fmt.Sprintf(` table:style-name="%s"`, w.style("table-row", `<style:table-row-properties fo:keep-together="always"/>`))
	}
	for _, r := range pa.rows {
		w.p("<table:table-row%s>", row)
		for i, c := range t.cols {
			va := "top"
			if c.kind != colDesc {
				va = valign(w.l)
			}
			gap, extra := rowGap(w.l, w.lh), ""
			if r.label {
				gap = w.lh * 0.5
			}
			if r.rules {
				extra = ` fo:border-bottom="0.2mm solid #bebebe"`
			}
			ci := i
			if r.label {
				ci = 0 // no grid
			}
			w.p(`<table:table-cell table:style-name="%s" office:value-type="string"><text:p text:style-name="%s">%s</text:p></table:table-cell>`,
				cell(ci, gap, va, extra), w.para(c.right, r.bold, w.fs, w.lh, 0, ""), odfLines(r.cells[i]))
		}
		w.p("</table:table-row>\n")
	}
	w.p("</table:table>\n")
}

// tabStops are the header's and rows' tab stops: one per column, at the
// column's left edge or right edge, after the paragraph's start (the
// table's left edge).
func (w *odtWriter) tabStops() string {
	var b strings.Builder
	b.WriteString("<style:tab-stops>")
	for _, c := range w.t.cols {
		if c.right {
			fmt.Fprintf(&b, `<style:tab-stop style:position="%s" style:type="right"/>`, mm(c.x+c.w-1.5-w.t.left))
		} else {
			fmt.Fprintf(&b, `<style:tab-stop style:position="%s"/>`, mm(c.x+1-w.t.left))
		}
	}
	b.WriteString("</style:tab-stops>")
	return b.String()
}

// tabLine writes one line of a row as a paragraph: a tab before each
// column's text, up to the last column with any.
func (w *odtWriter) tabLine(style string, cells []string) {
	last := -1
	for i, c := range cells {
		if c != "" {
			last = i
		}
	}
	w.p(`<text:p text:style-name="%s">`, style)
	for i := 0; i <= last; i++ {
		w.p("<text:tab/>%s", odfText(cells[i]))
	}
	w.p("</text:p>\n")
}

// tabs writes a header and its rows as tabbed paragraphs.
func (w *odtWriter) tabs(pa part) {
	stops := w.tabStops()
	h := pa.header
	lines := 0
	for _, l := range h.labels {
		lines = max(lines, len(l))
	}
	for i := range lines {
		more := `fo:keep-with-next="always" `
		if h.shaded {
			more += `fo:background-color="#e1e1e1" `
		}
		below := 0.0
		if i == lines-1 {
			more += `fo:border-bottom="0.2mm solid #000000" fo:padding-bottom="0.5mm" `
			below = w.lh * 0.5
		}
		cells := make([]string, len(h.labels))
		for j, l := range h.labels {
			if k := i - (lines - len(l)); k >= 0 {
				cells[j] = l[k]
			}
		}
		w.tabLine(w.para(false, true, w.fs, w.lh, below, more+stops), cells)
	}
	for _, r := range pa.rows {
		n := 0
		for _, c := range r.cells {
			n = max(n, len(c))
		}
		at := min(r.at, n-1)
		for i := range n {
			cells := make([]string, len(r.cells))
			for j, c := range r.cells {
				switch {
				case w.t.cols[j].kind == colDesc && i < len(c):
					cells[j] = c[i]
				case w.t.cols[j].kind != colDesc && i == at:
					cells[j] = c[0]
				}
			}
			more, below := "", 0.0
			if i < n-1 && !w.st.split {
				more = `fo:keep-with-next="always" `
			}
			if i == n-1 {
				below = rowGap(w.l, w.lh)
				if r.label {
					below = w.lh * 0.5
				}
				if r.rules {
					more = `fo:border-bottom="0.2mm solid #bebebe" `
				}
			}
			w.tabLine(w.para(false, r.bold, w.fs, w.lh, below, more+stops), cells)
		}
	}
}
