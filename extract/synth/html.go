package synth

import (
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
)

// A statement written as HTML and CSS for Chromium to print, in one of
// three ways a web page lays out a table: a real <table> (html-table),
// every string absolutely positioned where fpdf drew it (html-absolute),
// or rows of flex boxes (html-flex). A table or flex page either keeps
// fpdf's pages, one fixed sheet each (html-paged), or lets the browser
// break the pages (html-flow): a <thead> repeats on every page, the page
// footer is Chromium's footer template, and there are no carried-forward
// rows. A table either takes fpdf's column widths or lets the browser size
// its columns and wrap the descriptions where it likes (html-auto-width).
// A flowing page keeps each row on one page unless rows-split.

// htmlStyle is how one sample is written.
type htmlStyle struct {
	mode  string // html-table, html-absolute, html-flex
	paged bool
	auto  bool // html-table: the browser sizes the columns
	split bool // html-flow: a row may break over two pages
	face  face
	fit   float64 // the face's size factor (face.fit)
	scale float64 // a further size factor, lowered when a page overflows
}

// chooseHTML draws a sample's HTML style from its seed (not from the
// layout's random numbers, so fpdf's output does not change), and says
// which of the layout's features it cannot print.
func chooseHTML(s Sample) (st htmlStyle, feats, dropped []string) {
	r := rand.New(rand.NewPCG(uint64(s.Seed), 0x6368726f6d69756d))
	st.mode = pickOne(r, []string{"html-table", "html-table", "html-absolute", "html-flex"})
	st.paged = st.mode == "html-absolute" || r.IntN(3) == 0
	st.face = pickFace(r, s.layout.Font, st.mode == "html-absolute")
	st.auto = st.mode == "html-table" && r.IntN(3) == 0
	st.split = !st.paged && r.IntN(4) == 0
	st.scale = 1
	feats = append([]string{st.mode, map[bool]string{true: "html-paged", false: "html-flow"}[st.paged]}, st.face.features(true)...)
	if st.auto {
		feats = append(feats, "html-auto-width")
	}
	if st.split {
		feats = append(feats, "rows-split")
	}
	// Chromium lays out whole strings: it cannot print one glyph at a time.
	dropped = []string{"glyph-by-glyph"}
	if !st.paged {
		dropped = append(dropped, "carried-forward")
	}
	return st, feats, dropped
}

// css writes a length in mm.
func mm(v float64) string { return fmt.Sprintf("%.2fmm", v) }

// pt writes a font size.
func pt(v float64) string { return fmt.Sprintf("%.2fpt", v) }

func esc(s string) string { return html.EscapeString(s) }

// htmlWriter writes one sample's HTML.
type htmlWriter struct {
	t  *trace
	l  Layout
	st htmlStyle
	b  strings.Builder
	fs float64 // the table's font size, pt
	lh float64 // a table line, mm
}

// html writes the sample as HTML in style st, and the footer template
// Chromium prints on each page of a flowing page ("" when paged).
func (s Sample) html(st htmlStyle) (doc, footer string) {
	w := &htmlWriter{t: s.trace, l: s.layout, st: st}
	k := st.fit * st.scale
	w.fs = s.trace.fontSize * k
	w.lh = s.trace.lh * k
	w.write()
	if !st.paged {
		footer = w.footerTemplate()
	}
	return w.b.String(), footer
}

func (w *htmlWriter) p(format string, args ...any) { fmt.Fprintf(&w.b, format, args...) }

// size scales a font size of fpdf's.
func (w *htmlWriter) size(v float64) string { return pt(v * w.st.fit * w.st.scale) }

func (w *htmlWriter) write() {
	t, st := w.t, w.st
	w.p("<!DOCTYPE html>\n<html lang=%q><head><meta charset=\"utf-8\"><title>%s</title>\n<style>\n", w.l.Lang, esc(t.bank))
	family := st.face.stack()
	if !st.face.system {
		family = `"Statement"`
		w.p("@font-face { font-family: \"Statement\"; src: url(\"/fonts/%s\"); font-weight: normal; }\n", st.face.regular)
		w.p("@font-face { font-family: \"Statement\"; src: url(\"/fonts/%s\"); font-weight: bold; }\n", st.face.bold)
	}
	if st.paged {
		w.p("@page { size: %s %s; margin: 0; }\n", mm(t.pageW), mm(t.pageH))
	} else {
		w.p("@page { size: %s %s; margin: 14mm %s 24mm %s; }\n", mm(t.pageW), mm(t.pageH), mm(t.pageW-t.right), mm(t.left))
	}
	w.p("html, body { margin: 0; padding: 0; }\n")
	w.p("body { font-family: %s; color: #000; -webkit-print-color-adjust: exact; print-color-adjust: exact; }\n", family)
	w.p(".sheet { position: relative; width: %s; height: %s; overflow: hidden; box-sizing: border-box; padding: 11mm %s 0 %s; break-after: page; }\n",
		mm(t.pageW), mm(t.pageH), mm(t.pageW-t.right), mm(t.left))
	w.p(".sheet:last-child { break-after: auto; }\n")
	w.p(".r { position: absolute; white-space: pre; line-height: 1; }\n")
	w.p(".wm { position: %s; left: 0; top: %s; width: %s; text-align: center; font-weight: bold; font-size: %s; color: #d7d7d7; transform: rotate(-35deg); white-space: nowrap; line-height: 1; }\n",
		map[bool]string{true: "absolute", false: "fixed"}[st.paged], mm(t.pageH/2-12), mm(t.pageW), w.size(70))
	w.p(".foot { position: absolute; left: %s; right: %s; top: %s; font-size: %s; color: #5a5a5a; line-height: 2.8mm; display: flex; justify-content: space-between; }\n",
		mm(t.left), mm(t.pageW-t.right), mm(t.pageH-17.5), w.size(6.5))
	w.p(".foot .legal { width: %s; }\n", mm(t.pageW-2*t.left-30))
	w.p(".tab { font-size: %s; line-height: %s; width: %s; }\n", pt(w.fs), mm(w.lh), mm(t.right-t.left))
	w.p(".c { box-sizing: border-box; padding: 0 1.5mm 0 1mm; white-space: nowrap; text-align: left; font-weight: normal; vertical-align: top; }\n")
	w.p(".m { text-align: right; }\n.d { white-space: normal; }\n.b, .b .c { font-weight: bold; }\n")
	w.p(".h .c { font-weight: bold; padding-top: %s; padding-bottom: %s; border-bottom: 0.2mm solid #000; }\n", mm(w.lh*0.35), mm(w.lh*0.45))
	w.p(".shaded .c { background: #e1e1e1; }\n")
	w.p(".row .c { padding-bottom: %s; }\n.label .c { padding-bottom: %s; }\n", mm(rowGap(w.l, w.lh)), mm(w.lh*0.5))
	w.p("tr.rule .c, .fx.rule { border-bottom: 0.2mm solid #bebebe; }\n")
	w.p(".grid .c + .c { border-left: 0.2mm solid #787878; }\n")
	if !st.split {
		w.p("tr, .fx { break-inside: avoid; }\n")
	}
	w.p("table.tab { table-layout: fixed; border-collapse: collapse; }\ntable.tab.auto { table-layout: auto; }\n")
	w.p(".fx { display: flex; }\n.fx > .c { flex: none; }\n")
	// A flex row's cells stretch to its height (for the grid's lines) and
	// stand their text at the top, middle or bottom.
	w.p(".fx.row > .c:not(.d) { display: flex; flex-direction: column; justify-content: %s; }\n", map[string]string{"amount-line-top": "flex-start", "amount-line-middle": "center", "amount-line-bottom": "flex-end"}[w.l.AmtLine])
	w.p("td.c:not(.d) { vertical-align: %s; }\n", valign(w.l))
	w.p(".lh { display: flex; justify-content: space-between; }\n.lh > div { width: %s; }\n", mm((t.pageW-2*t.left)/2-4))
	w.p(".box { width: 90mm; box-sizing: border-box; border: 0.3mm solid #969696; padding: 0.8mm 2mm; font-size: %s; line-height: 4.4mm; margin: 2mm 0 4mm; }\n", w.size(8.5))
	w.p(".kv { display: flex; justify-content: space-between; }\n")
	w.p("</style></head><body>\n")
	if st.mode == "html-absolute" {
		w.absolute()
	} else {
		w.flowing()
	}
	w.p("</body></html>\n")
}

func (w *htmlWriter) watermark() {
	if w.t.watermark != "" {
		w.p("<div class=\"wm\">%s</div>\n", esc(w.t.watermark))
	}
}

// footer is a paged sheet's footer.
func (w *htmlWriter) footer(n int) {
	t := w.t
	w.p("<div class=\"foot\"><div class=\"legal\">%s</div><div>%s %d %s %d</div></div>\n", esc(t.legal), esc(t.pageWord), n, esc(t.ofWord), len(t.pages))
}

// footerTemplate is Chromium's page footer for a flowing page.
func (w *htmlWriter) footerTemplate() string {
	t := w.t
	return fmt.Sprintf(`<div style="font-family: %s; font-size: %s; color: #5a5a5a; width: 100%%; margin: 0 %s 0 %s; display: flex; justify-content: space-between; line-height: 1.3;">`+
		`<div style="width: %s">%s</div><div>%s <span class="pageNumber"></span> %s <span class="totalPages"></span></div></div>`,
		strings.ReplaceAll(w.st.face.stack(), `"`, "'"), w.size(6.5), mm(t.pageW-t.right), mm(t.left), mm(t.pageW-2*t.left-30), esc(t.legal), esc(t.pageWord), esc(t.ofWord))
}

// absolute writes every run where fpdf drew it.
func (w *htmlWriter) absolute() {
	t := w.t
	k := w.st.fit * w.st.scale
	for _, pg := range t.pages {
		w.p("<div class=\"sheet\">\n")
		w.watermark()
		for _, r := range pg.rules {
			gray := fmt.Sprintf("#%02x%02x%02x", r.gray, r.gray, r.gray)
			switch {
			case r.rect && r.fill:
				w.p("<div style=\"position:absolute;left:%s;top:%s;width:%s;height:%s;background:%s\"></div>\n", mm(r.x1), mm(r.y1), mm(r.x2), mm(r.y2), gray)
			case r.rect:
				w.p("<div style=\"position:absolute;left:%s;top:%s;width:%s;height:%s;border:0.2mm solid %s;box-sizing:border-box\"></div>\n", mm(r.x1), mm(r.y1), mm(r.x2), mm(r.y2), gray)
			case r.x1 == r.x2:
				w.p("<div style=\"position:absolute;left:%s;top:%s;height:%s;border-left:0.2mm solid %s\"></div>\n", mm(r.x1), mm(r.y1), mm(r.y2-r.y1), gray)
			default:
				w.p("<div style=\"position:absolute;left:%s;top:%s;width:%s;border-top:0.2mm solid %s\"></div>\n", mm(r.x1), mm(r.y1), mm(r.x2-r.x1), gray)
			}
		}
		for _, r := range pg.runs {
			size := r.size * k
			top := r.y - 0.85*size*25.4/72
			style := ""
			if r.bold {
				style += "font-weight:bold;"
			}
			if r.gray != 0 {
				style += fmt.Sprintf("color:#%02x%02x%02x;", r.gray, r.gray, r.gray)
			}
			if r.right {
				w.p("<div class=\"r\" style=\"right:%s;top:%s;font-size:%s;%s\">%s</div>\n", mm(t.pageW-r.x), mm(top), pt(size), style, esc(r.text))
			} else {
				w.p("<div class=\"r\" style=\"left:%s;top:%s;font-size:%s;%s\">%s</div>\n", mm(r.x), mm(top), pt(size), style, esc(r.text))
			}
		}
		w.p("</div>\n")
	}
}

// flowing writes the blocks as tables or flex rows.
func (w *htmlWriter) flowing() {
	sheets := w.t.sheets(w.st.paged)
	if !w.st.paged {
		w.watermark()
	}
	for n, parts := range sheets {
		if w.st.paged {
			w.p("<div class=\"sheet\">\n")
			w.watermark()
		}
		for _, pa := range parts {
			if pa.header != nil {
				w.table(pa)
				continue
			}
			w.block(pa.block)
		}
		if w.st.paged {
			w.footer(n + 1)
			w.p("</div>\n")
		}
	}
}

// pair writes a label and a value at the right: a table's cells or flex
// boxes.
func (w *htmlWriter) pair(a, b string) {
	if w.st.mode == "html-table" {
		w.p("<table style=\"width:100%%;border-collapse:collapse\"><tr><td style=\"padding:0;vertical-align:top\">%s</td><td style=\"padding:0;vertical-align:top;text-align:right\">%s</td></tr></table>\n", a, b)
		return
	}
	w.p("<div class=\"kv\"><div>%s</div><div style=\"text-align:right\">%s</div></div>\n", a, b)
}

func (w *htmlWriter) block(b block) {
	switch b := b.(type) {
	case letterheadBlock:
		var bank, title strings.Builder
		fmt.Fprintf(&bank, "<div style=\"font-weight:bold;font-size:%s;line-height:1.3\">%s</div>", w.size(14), esc(b.bank))
		for _, a := range b.address {
			fmt.Fprintf(&bank, "<div style=\"font-size:%s;line-height:3.4mm\">%s</div>", w.size(7.5), esc(a))
		}
		fmt.Fprintf(&title, "<div style=\"font-weight:bold;font-size:%s;line-height:1.5\">%s</div>", w.size(10), esc(b.title))
		for _, a := range b.info {
			fmt.Fprintf(&title, "<div style=\"font-size:%s;line-height:3.8mm\">%s</div>", w.size(8), esc(a))
		}
		l, r := bank.String(), title.String()
		if b.bankRight {
			l, r = r, l
		}
		if w.st.mode == "html-table" {
			w.p("<table style=\"width:100%%;border-collapse:collapse\"><tr><td style=\"padding:0;vertical-align:top;width:50%%\">%s</td><td style=\"padding:0 0 0 5mm;vertical-align:top\">%s</td></tr></table>\n", l, r)
		} else {
			w.p("<div class=\"lh\"><div>%s</div><div>%s</div></div>\n", l, r)
		}
		w.p("<div style=\"font-size:%s;line-height:4mm;margin:3mm 0 5mm\">%s<br>%s</div>\n", w.size(8.5), esc(b.holder[0]), esc(b.holder[1]))
	case pageHeadBlock:
		w.p("<div style=\"margin-bottom:5mm\"><div style=\"font-weight:bold;font-size:%s\">%s</div><div style=\"font-size:%s\">%s</div></div>\n", w.size(11), esc(b.bank), w.size(7.5), esc(b.line))
	case accountHeadBlock:
		w.p("<div style=\"font-weight:bold;font-size:%s;margin:%s 0 2mm\">%s</div>\n", w.size(9.5), mm(w.lh*2), esc(b.text))
	case boxBlock:
		w.p("<div class=\"box\">\n")
		for _, kv := range b.rows {
			w.pair(esc(kv[0]), esc(kv[1]))
		}
		w.p("</div>\n")
	case titleBlock:
		w.p("<div style=\"font-weight:bold;font-size:%s;margin:%s 0 %s\">%s</div>\n", pt(w.fs+1.5*w.st.fit*w.st.scale), mm(w.lh), mm(w.lh*0.6), esc(b.text))
	case feesBlock:
		w.p("<div style=\"margin-top:%s;font-size:%s;line-height:%s;width:109mm\">\n", mm(w.lh*2), pt(w.fs), mm(w.lh*1.4))
		w.p("<div style=\"font-weight:bold;font-size:%s;margin-bottom:%s\">%s</div>\n", pt(w.fs+w.st.fit*w.st.scale), mm(w.lh*0.6), esc(b.title))
		for _, kv := range b.items {
			w.pair(esc(kv[0]), esc(kv[1]))
		}
		w.p("</div>\n")
	}
}

// cellClass is a column's class.
func cellClass(c colSpec) string {
	switch {
	case c.kind == colDesc:
		return "c d"
	case c.right:
		return "c m"
	}
	return "c"
}

// rowClass is a row's class.
func (w *htmlWriter) rowClass(r rowBlock) string {
	cls := "row"
	if r.label {
		cls = "label"
	}
	if r.bold {
		cls += " b"
	}
	if r.rules {
		cls += " rule"
	}
	if w.l.Grid && !r.label {
		cls += " grid"
	}
	return cls
}

func cellHTML(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = esc(l)
	}
	return strings.Join(out, "<br>")
}

// table writes a header and its rows.
func (w *htmlWriter) table(pa part) {
	cols := w.t.cols
	h := pa.header
	head := "h"
	if h.shaded {
		head += " shaded"
	}
	if w.st.mode == "html-table" {
		if w.st.auto {
			w.p("<table class=\"tab auto\">")
		} else {
			w.p("<table class=\"tab\"><colgroup>")
			for _, c := range cols {
				w.p("<col style=\"width:%s\">", mm(c.w))
			}
			w.p("</colgroup>")
		}
		w.p("\n<thead><tr class=\"%s\">", head)
		for i, c := range cols {
			w.p("<th class=\"%s\">%s</th>", cellClass(c), cellHTML(h.labels[i]))
		}
		w.p("</tr></thead>\n<tbody>\n")
		for _, r := range pa.rows {
			w.p("<tr class=\"%s\">", w.rowClass(r))
			for i, c := range cols {
				cell := cellHTML(r.cells[i])
				if w.st.auto && c.kind == colDesc {
					cell = esc(strings.Join(r.cells[i], " "))
				}
				w.p("<td class=\"%s\">%s</td>", cellClass(c), cell)
			}
			w.p("</tr>\n")
		}
		w.p("</tbody></table>\n")
		return
	}
	w.p("<div class=\"tab\">\n<div class=\"fx %s\">", head)
	for i, c := range cols {
		w.p("<div class=\"%s\" style=\"width:%s\">%s</div>", cellClass(c), mm(c.w), cellHTML(h.labels[i]))
	}
	w.p("</div>\n")
	for _, r := range pa.rows {
		w.p("<div class=\"fx %s\">", w.rowClass(r))
		for i, c := range cols {
			w.p("<div class=\"%s\" style=\"width:%s\">%s</div>", cellClass(c), mm(c.w), cellHTML(r.cells[i]))
		}
		w.p("</div>\n")
	}
	w.p("</div>\n")
}
