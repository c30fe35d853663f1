package synth

import (
	"strconv"
	"strings"
)

// What fpdf drew, kept so that the other producers print the same
// statement: every text run, rule and box where fpdf put it (for the
// layouts that position text absolutely) and the statement's blocks in
// reading order (for the layouts that let a browser or an office suite
// flow them). Recording draws nothing and takes no random numbers, so
// fpdf's output is unchanged.

// trace is one drawn statement.
type trace struct {
	pages        []*tracePage
	pageW, pageH float64 // mm
	left, right  float64 // the table's left and right edges, mm
	lh           float64 // a table line's height, mm
	cols         []colSpec
	font         string // fpdf core font: Helvetica, Times, Courier
	fontSize     float64
	watermark    string // "" when the layout has none
	legal        string
	pageWord     string // "Page"
	ofWord       string // "of"
	bank         string
	headLine     string // the second line of a later page's heading
}

// tracePage is one page as fpdf drew it.
type tracePage struct {
	runs   []textRun
	rules  []rule
	blocks []block
}

// textRun is one string drawn at one place.
type textRun struct {
	x, y  float64 // mm; y is the baseline; x the left edge, or the right edge when right
	w     float64 // width in fpdf's font, mm
	text  string
	right bool
	bold  bool
	size  float64 // pt
	gray  int     // 0 black .. 255 white
}

// rule is a drawn line, or a rectangle when rect (x2, y2 then width and
// height), filled when fill.
type rule struct {
	x1, y1, x2, y2 float64
	rect, fill     bool
	gray           int
}

// block is one part of a statement in reading order: one of the *Block
// types below.
type block interface{ isBlock() }

// letterheadBlock is the first page's furniture.
type letterheadBlock struct {
	bank      string
	address   []string
	bankRight bool // the bank's name stands at the right, the title block at the left
	title     string
	info      []string // account, period, currency lines under the title
	holder    []string // the holder's name and address
}

// pageHeadBlock heads a later page.
type pageHeadBlock struct{ bank, line string }

// accountHeadBlock names an account of a document that holds several.
type accountHeadBlock struct{ text string }

// boxBlock is a summary box: label and value on each row.
type boxBlock struct{ rows [][2]string }

// titleBlock is a table's title.
type titleBlock struct{ text string }

// headerBlock is a table's column headings, each as its printed lines.
// repeat: fpdf printed it again after a page break.
type headerBlock struct {
	labels [][]string
	shaded bool
	repeat bool
}

// rowBlock is one table row: each column's lines (a description may
// have several; "" is an empty cell), the line the other columns stand
// on (at), and what kind of row it is.
type rowBlock struct {
	cells   [][]string
	at      int
	bold    bool
	label   bool // opening, closing, totals, carried or brought forward
	forward bool // carried or brought forward at a page break
	rules   bool // a rule under the row
}

// feesBlock is the fees and rates table.
type feesBlock struct {
	title string
	items [][2]string
}

func (letterheadBlock) isBlock()  {}
func (pageHeadBlock) isBlock()    {}
func (accountHeadBlock) isBlock() {}
func (boxBlock) isBlock()         {}
func (titleBlock) isBlock()       {}
func (headerBlock) isBlock()      {}
func (rowBlock) isBlock()         {}
func (feesBlock) isBlock()        {}

// page is the page fpdf is drawing, created as needed.
func (t *trace) page(n int) *tracePage {
	for len(t.pages) < n {
		t.pages = append(t.pages, &tracePage{})
	}
	return t.pages[n-1]
}

// finish puts the page count where fpdf's alias stood.
func (t *trace) finish() {
	nb := strconv.Itoa(len(t.pages))
	for _, p := range t.pages {
		for i := range p.runs {
			p.runs[i].text = strings.ReplaceAll(p.runs[i].text, "{nb}", nb)
		}
	}
}

// record adds a run to the current page.
func (d *document) record(x, y float64, s string, right bool) {
	if d.trace == nil || d.pdf.PageNo() == 0 {
		return
	}
	g, _, _ := d.pdf.GetTextColor()
	size, _ := d.pdf.GetFontSize()
	d.trace.page(d.pdf.PageNo()).runs = append(d.trace.page(d.pdf.PageNo()).runs,
		textRun{x: x, y: y, w: d.width(s), text: s, right: right, bold: d.bold, size: size, gray: g})
}

// recordRule adds a line or rectangle to the current page.
func (d *document) recordRule(r rule) {
	if d.trace == nil || d.pdf.PageNo() == 0 {
		return
	}
	p := d.trace.page(d.pdf.PageNo())
	p.rules = append(p.rules, r)
}

// recordBlock adds a block to the current page.
func (d *document) recordBlock(b block) {
	if d.trace == nil || d.pdf.PageNo() == 0 {
		return
	}
	p := d.trace.page(d.pdf.PageNo())
	p.blocks = append(p.blocks, b)
}

// part is what a flowing layout prints in turn: a block, or a table (a
// header and its rows).
type part struct {
	block  block
	header *headerBlock
	rows   []rowBlock
}

// sheets groups the blocks into parts: per fpdf page when paged, or on
// one sheet that the producer breaks into pages itself. Unpaged, what
// fpdf drew only because a page broke (a later page's heading, a repeated
// header, carried and brought forward rows) is left out, and a table runs
// on over the break.
func (t *trace) sheets(paged bool) [][]part {
	var out [][]part
	var cur []part
	inTable := false
	for _, p := range t.pages {
		if paged {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur, inTable = nil, false
		}
		for _, b := range p.blocks {
			switch b := b.(type) {
			case pageHeadBlock:
				if paged {
					cur = append(cur, part{block: b})
				}
			case headerBlock:
				if b.repeat && !paged {
					continue
				}
				h := b
				cur = append(cur, part{header: &h})
				inTable = true
			case rowBlock:
				if b.forward && !paged {
					continue
				}
				if !inTable {
					// Rows without a header are not drawn.
					panic("synth: a row outside a table")
				}
				cur[len(cur)-1].rows = append(cur[len(cur)-1].rows, b)
			default:
				cur = append(cur, part{block: b})
				inTable = false
			}
		}
	}
	return append(out, cur)
}
