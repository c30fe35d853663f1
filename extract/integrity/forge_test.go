package integrity

// The forgery generator: it alters genuine statements the ways people do,
// so that the report's recall can be measured on forgeries whose place is
// known. Each forgery starts from a genuine file and the engine's reading
// of it (the rows and the cells findCells finds), and is written either as
// an incremental update appended to the genuine bytes (what an editor that
// saves incrementally leaves) or rewritten whole by qpdf (what "save as"
// leaves, with no earlier revision to recover).

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"passbook/extract/ledger"
	"passbook/extract/pdfcontent"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/shopspring/decimal"
)

// forgery is one forged file and where it was altered.
type forgery struct {
	kind string
	data []byte
	page int        // 1-based; 0 when the change is not local
	box  [4]float64 // points from the page's top-left
}

// forger edits one genuine PDF.
type forger struct {
	orig    []byte
	f       *pdfFile
	pages   []pageContent
	in      Input
	cells   [nRoles][]cell
	streams map[int][]byte // content streams rewritten (decoded), by object number
	objs    map[int]string // other objects replaced or added, in PDF syntax
	info    int            // a new Info dictionary's object number, 0 to keep the old
	next    int
	extra   map[int][]string          // pages' drawing appended after the page's own content (0-based page)
	fonts   map[int]map[string]string // fonts added to pages' resources: name → object (PDF syntax)
}

func newForger(in Input) (*forger, error) {
	f, err := readPDF(in.Data, "", false)
	if err != nil {
		return nil, err
	}
	if len(f.pages) == 0 || len(revisions(in.Data)) == 0 || f.x.Root == nil {
		return nil, fmt.Errorf("no pages, or no cross-reference chain to append to")
	}
	if f.x.Encrypt != nil {
		return nil, fmt.Errorf("encrypted")
	}
	fg := &forger{orig: in.Data, f: f, in: in, streams: map[int][]byte{}, objs: map[int]string{}, extra: map[int][]string{}, fonts: map[int]map[string]string{}}
	fg.next = f.x.MaxObjNr + 1
	if f.x.Size != nil && *f.x.Size > fg.next {
		fg.next = *f.x.Size
	}
	for _, p := range f.pages {
		fg.pages = append(fg.pages, f.walkPage(p, true))
	}
	fg.cells = findCells(in, fg.pages)
	return fg, nil
}

func (fg *forger) stream(n int) []byte {
	if b, ok := fg.streams[n]; ok {
		return b
	}
	return fg.f.stream(types.IndirectRef{ObjectNumber: types.Integer(n)})
}

// digitGlyphs are the glyphs of the figures drawn in box on page p (0-based), left to right.
func (fg *forger) digitGlyphs(p int, box [4]float64) []glyph {
	var out []glyph
	for _, g := range fg.pages[p].glyphs {
		if isDigitText(g.text) && inside(g.box, box, 0.5) {
			out = append(out, g)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].box[0] < out[j].box[0] })
	return out
}

// glyphsIn are all glyphs drawn in box on page p.
func (fg *forger) glyphsIn(p int, box [4]float64) []glyph {
	var out []glyph
	for _, g := range fg.pages[p].glyphs {
		if inside(g.box, box, 0.5) {
			out = append(out, g)
		}
	}
	return out
}

// codeFor is a code of font ft that draws text t somewhere in the document.
func (fg *forger) codeFor(ft *font, t string) (int, bool) {
	for _, pc := range fg.pages {
		for _, g := range pc.glyphs {
			if g.font == ft && g.text == t {
				return g.code, true
			}
		}
	}
	return 0, false
}

// tokenEdit is what happens to one string of a content stream.
type tokenEdit struct {
	g       glyph // any glyph of the string: where it is
	removed map[int]bool
	subst   map[int]int
}

// edits collects changes to the strings of content streams.
type edits map[[2]int]*tokenEdit

func (e edits) at(g glyph) *tokenEdit {
	k := [2]int{g.at.src, g.at.tokAt}
	if e[k] == nil {
		e[k] = &tokenEdit{g: g, removed: map[int]bool{}, subst: map[int]int{}}
	}
	return e[k]
}

func (e edits) remove(gs ...glyph) {
	for _, g := range gs {
		e.at(g).removed[g.at.idx] = true
	}
}

func (e edits) set(g glyph, code int) { e.at(g).subst[g.at.idx] = code }

// apply writes the edits into the content streams; false when a string
// cannot be rewritten (shown by ' or ", or not in a stream object).
func (fg *forger) apply(e edits) bool {
	bySrc := map[int][]*tokenEdit{}
	for _, te := range e {
		if te.g.at.src == 0 {
			return false
		}
		bySrc[te.g.at.src] = append(bySrc[te.g.at.src], te)
	}
	for src, tes := range bySrc {
		b := slices.Clone(fg.stream(src))
		sort.Slice(tes, func(i, j int) bool { return tes[i].g.at.tokAt > tes[j].g.at.tokAt })
		for _, te := range tes {
			g := te.g
			tok, _, _, ok, _ := pdfcontent.NewLexer(b[g.at.tokAt:g.at.tokEnd]).Next()
			if !ok || tok.Kind != pdfcontent.String {
				return false
			}
			step := 1
			if g.font.twoByte {
				step = 2
			}
			var items []string
			var run []byte
			kern := 0.0
			flush := func() {
				if len(run) > 0 {
					items = append(items, fmt.Sprintf("<%X>", run))
					run = nil
				}
				if kern != 0 {
					items = append(items, fmt.Sprintf("%.3f", -kern))
					kern = 0
				}
			}
			for i := 0; i+step <= len(tok.Val); i += step {
				code := int(tok.Val[i])
				if step == 2 {
					code = code<<8 | int(tok.Val[i+1])
				}
				if te.removed[i/step] {
					if len(run) > 0 {
						flush()
					}
					kern += g.font.width(code) * 1000
					continue
				}
				if kern != 0 {
					flush()
				}
				if c, ok := te.subst[i/step]; ok {
					code = c
				}
				if step == 2 {
					run = append(run, byte(code>>8), byte(code))
				} else {
					run = append(run, byte(code))
				}
			}
			flush()
			var repl string
			at, end := g.at.tokAt, g.at.tokEnd
			switch {
			case g.at.inTJ:
				repl = strings.Join(items, " ")
			case string(b[g.at.opAt:g.at.opEnd]) == "Tj":
				repl, end = "["+strings.Join(items, " ")+"] TJ", g.at.opEnd
			default:
				return false
			}
			if len(items) == 0 {
				repl = "<>"
				if !g.at.inTJ {
					repl = "<> Tj"
				}
			}
			b = slices.Concat(b[:at], []byte(repl), b[end:])
		}
		fg.streams[src] = b
	}
	return true
}

// draw appends drawing to page p, after its own content, in default user
// space.
func (fg *forger) draw(p int, ops string) { fg.extra[p] = append(fg.extra[p], ops) }

// userXY turns a point from the page's top-left into default user space
// (pages are not rotated in the statements forged here).
func (fg *forger) userXY(p int, x, y float64) (float64, float64) {
	b := fg.f.pages[p].box
	return x + b[0], b[3] - y
}

// helvetica's advance widths (1/1000 em) for what figures print.
func helvWidth(s string) float64 {
	w := 0.0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			w += 556
		case c == '.' || c == ',' || c == ' ':
			w += 278
		case c == '-':
			w += 333
		default:
			w += 556
		}
	}
	return w / 1000
}

// typeHelvetica draws text in Helvetica (or Courier) with its right edge
// at the glyphs' right edge and on their baseline.
func (fg *forger) typeFont(p int, gs []glyph, text, res string) {
	last := gs[len(gs)-1]
	size := last.at.trm[3]
	x1, _ := fg.userXY(p, last.box[2], 0)
	w := helvWidth(text) * size
	if res == "PBCour" {
		w = 0.6 * float64(len([]rune(text))) * size
	}
	fg.addFont(p, res, "<< /Type /Font /Subtype /Type1 /BaseFont /"+map[string]string{"PBHelv": "Helvetica", "PBCour": "Courier"}[res]+" /Encoding /WinAnsiEncoding >>")
	fg.draw(p, fmt.Sprintf("BT /%s %.2f Tf 1 0 0 1 %.2f %.2f Tm (%s) Tj ET", res, size, x1-w, last.at.trm[5], text))
}

// addFont adds a font resource to page p.
func (fg *forger) addFont(p int, name, obj string) {
	if fg.fonts[p] == nil {
		fg.fonts[p] = map[string]string{}
	}
	fg.fonts[p][name] = obj
}

// redraw draws glyphs again with their own fonts (or the font resource
// res, when set), moved by dx, dy.
func (fg *forger) redraw(p int, gs []glyph, dx, dy float64, res ...string) bool {
	var b strings.Builder
	for _, g := range gs {
		fr := g.at.fontRes
		if fr == "" {
			return false
		}
		if len(res) > 0 {
			fr = res[0]
		}
		m := g.at.trm
		code := fmt.Sprintf("%02X", g.code)
		if g.font.twoByte {
			code = fmt.Sprintf("%04X", g.code)
		}
		fmt.Fprintf(&b, "BT /%s 1 Tf %.4f %.4f %.4f %.4f %.3f %.3f Tm <%s> Tj ET\n", fr, m[0], m[1], m[2], m[3], m[4]+dx, m[5]+dy, code)
	}
	fg.draw(p, b.String())
	return true
}

// write appends the changes to the genuine bytes as an incremental update.
func (fg *forger) write() []byte {
	objs := map[int]string{}
	maps := func(k int, v string) { objs[k] = v }
	for n, b := range fg.streams {
		d, _, _ := fg.f.streamDict(types.IndirectRef{ObjectNumber: types.Integer(n)})
		d = d.Clone().(types.Dict)
		delete(d, "Filter")
		delete(d, "DecodeParms")
		d["Length"] = types.Integer(len(b))
		maps(n, fmt.Sprintf("%s\nstream\n%s\nendstream", d.PDFString(), b))
	}
	for n, s := range fg.objs {
		maps(n, s)
	}
	for p, ops := range fg.extra {
		pg := fg.f.pages[p]
		if pg.ref == 0 {
			continue
		}
		d := pg.dict.Clone().(types.Dict)
		res := types.Dict{}
		if pg.res != nil {
			res = pg.res.Clone().(types.Dict)
		}
		if len(fg.fonts[p]) > 0 {
			fonts := types.Dict{}
			if fd, _ := fg.f.dict(res["Font"]); fd != nil {
				fonts = fd.Clone().(types.Dict)
			}
			for name, obj := range fg.fonts[p] {
				n := fg.next
				fg.next++
				maps(n, obj)
				fonts[name] = types.IndirectRef{ObjectNumber: types.Integer(n)}
			}
			res["Font"] = fonts
		}
		d["Resources"] = res
		open, close := fg.next, fg.next+1
		fg.next += 2
		body := "Q\n" + strings.Join(ops, "\n")
		maps(open, "<< /Length 2 >>\nstream\nq\n\nendstream")
		maps(close, fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(body), body))
		arr := types.Array{types.IndirectRef{ObjectNumber: types.Integer(open)}}
		for _, c := range pg.contents {
			arr = append(arr, types.IndirectRef{ObjectNumber: types.Integer(c)})
		}
		d["Contents"] = append(arr, types.IndirectRef{ObjectNumber: types.Integer(close)})
		maps(pg.ref, d.PDFString())
	}
	var out bytes.Buffer
	out.Write(fg.orig)
	if !bytes.HasSuffix(fg.orig, []byte("\n")) {
		out.WriteByte('\n')
	}
	var nums []int
	for n := range objs {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	offs := map[int]int{}
	for _, n := range nums {
		offs[n] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", n, objs[n])
	}
	xref := out.Len()
	out.WriteString("xref\n0 1\n0000000000 65535 f \n")
	for _, n := range nums {
		fmt.Fprintf(&out, "%d 1\n%010d 00000 n \n", n, offs[n])
	}
	revs := revisions(fg.orig)
	prev := revs[len(revs)-1].xref
	size := fg.next
	if len(nums) > 0 && nums[len(nums)-1] >= size {
		size = nums[len(nums)-1] + 1
	}
	trailer := fmt.Sprintf("/Size %d /Root %d 0 R /Prev %d", size, fg.f.x.Root.ObjectNumber.Value(), prev)
	if fg.info != 0 {
		trailer += fmt.Sprintf(" /Info %d 0 R", fg.info)
	} else if fg.f.x.Info != nil {
		trailer += fmt.Sprintf(" /Info %d 0 R", fg.f.x.Info.ObjectNumber.Value())
	}
	if len(fg.f.x.ID) == 2 {
		trailer += " /ID " + fg.f.x.ID.PDFString()
	}
	fmt.Fprintf(&out, "trailer\n<< %s >>\nstartxref\n%d\n%%%%EOF\n", trailer, xref)
	return out.Bytes()
}

// rewrite saves a file whole with qpdf, as "save as" does: no earlier
// revision is left to read.
func rewrite(t testing.TB, data []byte, args ...string) []byte {
	t.Helper()
	return tool(t, "qpdf", [][]byte{data}, func(in []string, out string) []string {
		return append(append(slices.Clone(args), in[0]), out)
	})
}

// tool runs qpdf or mutool on files written to a temporary directory and
// returns what it wrote. qpdf exits 3 when it wrote its output with
// warnings; anything else failing fails the test: the tools are installed
// by make test-deps.
func tool(t testing.TB, name string, files [][]byte, args func(in []string, out string) []string) []byte {
	t.Helper()
	dir := t.TempDir()
	var in []string
	for i, b := range files {
		p := filepath.Join(dir, fmt.Sprintf("in%d.pdf", i))
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		in = append(in, p)
	}
	out := filepath.Join(dir, "out.pdf")
	a := args(in, out)
	if msg, err := exec.Command(name, a...).CombinedOutput(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || name != "qpdf" || ee.ExitCode() != 3 {
			t.Fatalf("%s %v: %v\n%s", name, a, err, msg)
		}
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// target is a row's money cell the forgeries alter: a row in the middle of
// the statement whose amount and printed balance were both found.
func (fg *forger) targets() []cell {
	var out []cell
	for _, role := range []int{roleOut, roleIn} {
		for _, c := range fg.cells[role] {
			t := fg.in.Result.Transactions[c.row]
			if t.Provenance.BalancePrinted() && c.row > 0 {
				out = append(out, c)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		mid := len(fg.in.Result.Transactions) / 2
		return absInt(out[i].row-mid) < absInt(out[j].row-mid)
	})
	return out
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// changeDigit picks one digit of cell c's figures to change, and the code
// that draws the new digit in the same font: the last digit before the
// decimals, so the figure keeps its length. It returns the glyph, the new
// code and the change in the amount.
func (fg *forger) changeDigit(c cell) (glyph, int, decimal.Decimal, bool) {
	gs := fg.digitGlyphs(c.page-1, c.box)
	if len(gs) < 3 {
		return glyph{}, 0, decimal.Decimal{}, false
	}
	g := gs[len(gs)-3] // the units of a figure printed with two decimals
	d := int(g.text[0] - '0')
	for _, step := range []int{1, 2, -1, 3, -2, 4} {
		nd := d + step
		if nd < 0 || nd > 9 || (nd == 0 && len(gs) == 3) {
			continue
		}
		if code, ok := fg.codeFor(g.font, string(rune('0'+nd))); ok {
			return g, code, decimal.NewFromInt(int64(nd - d)), true
		}
	}
	return glyph{}, 0, decimal.Decimal{}, false
}

// retype changes the figures drawn in box on page p from old to new
// (digits only, same count), in their own font.
func (fg *forger) retype(e edits, p int, box [4]float64, old, nw decimal.Decimal) bool {
	gs := fg.digitGlyphs(p, box)
	od, nd := digits(old.Abs().StringFixed(2)), digits(nw.Abs().StringFixed(2))
	if len(gs) != len(od) || len(od) != len(nd) || nw.Sign()*old.Sign() < 0 {
		return false
	}
	for i, g := range gs {
		if od[i] == nd[i] {
			continue
		}
		code, ok := fg.codeFor(g.font, string(nd[i]))
		if !ok {
			return false
		}
		e.set(g, code)
	}
	return true
}

// amountEdited changes one digit of a row's amount; with balances, every
// printed balance after it (and the closing balance and totals wherever
// they are printed) moves with it, so the arithmetic still proves.
func (fg *forger) amountEdited(withBalances bool) (forgery, bool) {
	txs := fg.in.Result.Transactions
	for _, c := range fg.targets() {
		e := edits{}
		g, code, delta, ok := fg.changeDigit(c)
		if !ok {
			continue
		}
		e.set(g, code)
		if withBalances {
			t := txs[c.row]
			if t.AmountOut != nil {
				delta = delta.Neg()
			}
			ok := true
			for _, bc := range fg.cells[roleBalance] {
				if bc.row >= c.row && txs[bc.row].Account == t.Account {
					old := txs[bc.row].Balance
					ok = ok && fg.retype(e, bc.page-1, bc.box, old, old.Add(delta))
				}
			}
			if !ok {
				continue
			}
			st := fg.in.Result.Statement
			for _, v := range []struct {
				old *decimal.Decimal
				d   decimal.Decimal
			}{{st.ClosingBalance, delta}, {st.TotalIn, delta.Abs().Mul(decimal.NewFromInt(int64(btoi(t.AmountIn != nil))))}, {st.TotalOut, delta.Abs().Mul(decimal.NewFromInt(int64(btoi(t.AmountOut != nil))))}} {
				if v.old == nil || v.d.IsZero() {
					continue
				}
				if t.AmountIn != nil && v.old == st.TotalIn && delta.IsNegative() || t.AmountOut != nil && v.old == st.TotalOut && delta.IsPositive() {
					v.d = v.d.Neg()
				}
				for p := range fg.pages {
					for _, w := range fg.in.Pages[p].Words {
						wb := [4]float64{w.X0, w.Y0, w.X1, w.Y1}
						if slices.Contains(amountDigits(*v.old), digits(w.Text)) && !inRow(txs, p+1, wb) {
							fg.retype(e, p, wb, *v.old, v.old.Add(v.d))
						}
					}
				}
			}
		}
		if !fg.apply(e) {
			continue
		}
		return forgery{data: fg.write(), page: c.page, box: c.box}, true
	}
	return forgery{}, false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// inRow reports whether box lies in a row's box on page p.
func inRow(txs []ledger.Transaction, p int, box [4]float64) bool {
	for _, t := range txs {
		if t.Page == p && inside(box, t.Box, 0.5) {
			return true
		}
	}
	return false
}

// coveringBox paints a white box over a row's amount and types a new
// amount (one digit changed) in Helvetica inside it.
func (fg *forger) coveringBox() (forgery, bool) {
	for _, c := range fg.targets() {
		g, _, delta, ok := fg.changeDigit(c)
		if !ok {
			continue
		}
		_ = g
		amt := fg.amountOf(c)
		text := formatLike(c.text, amt.Add(delta))
		p := c.page - 1
		x0, y1 := fg.userXY(p, c.box[0]-1, c.box[3]+1)
		fg.draw(p, fmt.Sprintf("1 1 1 rg %.2f %.2f %.2f %.2f re f 0 0 0 rg", x0, y1, c.box[2]-c.box[0]+2, c.box[3]-c.box[1]+2))
		gs := fg.digitGlyphs(p, c.box)
		if len(gs) == 0 {
			continue
		}
		fg.typeFont(p, gs, text, "PBHelv")
		return forgery{data: fg.write(), page: c.page, box: c.box}, true
	}
	return forgery{}, false
}

func (fg *forger) amountOf(c cell) decimal.Decimal {
	t := fg.in.Result.Transactions[c.row]
	if t.AmountIn != nil && slices.Contains(amountDigits(*t.AmountIn), digits(c.text)) {
		return *t.AmountIn
	}
	if t.AmountOut != nil {
		return *t.AmountOut
	}
	return t.Balance
}

// formatLike prints v with the grouping and decimal marks of printed.
func formatLike(printed string, v decimal.Decimal) string {
	s := v.Abs().StringFixed(2)
	dec, grp := ".", ","
	if i := strings.LastIndexAny(printed, ".,"); i >= 0 && i == len(strings.TrimRight(printed, " )-CRDRcrdr"))-3 {
		dec = printed[i : i+1]
	}
	if dec == "," {
		grp = "."
	}
	if !strings.ContainsAny(strings.TrimSuffix(printed, printed[max(0, len(printed)-3):]), ".,") {
		grp = ""
	}
	intPart, frac := s[:len(s)-3], s[len(s)-2:]
	var b strings.Builder
	for i, ch := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(grp)
		}
		b.WriteRune(ch)
	}
	return b.String() + dec + frac
}

// newFontCell types one amount again, the same figures, in another font.
func (fg *forger) newFontCell() (forgery, bool) {
	for _, c := range fg.targets() {
		p := c.page - 1
		gs := fg.digitGlyphs(p, c.box)
		all := fg.glyphsIn(p, c.box)
		if len(gs) == 0 {
			continue
		}
		e := edits{}
		e.remove(all...)
		if !fg.apply(e) {
			continue
		}
		res := "PBHelv"
		if f := family(gs[0].font.base); f == "helvetica" || f == "arial" || f == "liberationsans" {
			res = "PBCour"
		}
		fg.typeFont(p, gs, glyphText(all), res)
		return forgery{data: fg.write(), page: c.page, box: c.box}, true
	}
	return forgery{}, false
}

// shiftedCell moves one amount by a point and a half, in its own font.
func (fg *forger) shiftedCell() (forgery, bool) {
	for _, c := range fg.targets() {
		p := c.page - 1
		all := fg.glyphsIn(p, c.box)
		e := edits{}
		e.remove(all...)
		if len(all) == 0 || !fg.apply(e) || !fg.redraw(p, all, -1.5, 0) {
			continue
		}
		b := c.box
		b[0], b[2] = b[0]-1.5, b[2]-1.5
		return forgery{data: fg.write(), page: c.page, box: b}, true
	}
	return forgery{}, false
}

// duplicatedRow prints a row again in place of the row after it.
func (fg *forger) duplicatedRow() (forgery, bool) {
	txs := fg.in.Result.Transactions
	for _, c := range fg.targets() {
		i := c.row
		if i+1 >= len(txs) || txs[i+1].Page != txs[i].Page {
			continue
		}
		a, b := txs[i].Box, txs[i+1].Box
		if abs((a[3]-a[1])-(b[3]-b[1])) > 0.5 {
			continue
		}
		p := txs[i].Page - 1
		src, dst := fg.glyphsIn(p, a), fg.glyphsIn(p, b)
		e := edits{}
		e.remove(dst...)
		if len(src) == 0 || !fg.apply(e) || !fg.redraw(p, src, 0, -(b[1]-a[1])) {
			continue
		}
		return forgery{data: fg.write(), page: txs[i+1].Page, box: b}, true
	}
	return forgery{}, false
}

// toUnicodeEdited draws one amount in a copy of its font whose ToUnicode
// map swaps two figures (a map is added where the font has none): the
// page shows the same glyphs, the text layer says other figures there.
func (fg *forger) toUnicodeEdited() (forgery, bool) {
	for _, c := range fg.targets() {
		p := c.page - 1
		gs := fg.digitGlyphs(p, c.box)
		if len(gs) < 3 {
			continue
		}
		ft := gs[len(gs)-3].font
		var n int
		if _, err := fmt.Sscanf(ft.id, "obj %d", &n); err != nil {
			continue
		}
		d1 := gs[len(gs)-3].text
		codes := map[int]string{}
		for _, pc := range fg.pages {
			for _, g := range pc.glyphs {
				if g.font == ft {
					codes[g.code] = g.text
				}
			}
		}
		c1, c2, d2 := -1, -1, ""
		for code, t := range codes {
			if t == d1 {
				c1 = code
			}
		}
		for code, t := range codes {
			if isDigitText(t) && t != d1 && (c2 < 0 || code < c2) {
				c2, d2 = code, t
			}
		}
		fd, _ := fg.f.dict(types.IndirectRef{ObjectNumber: types.Integer(n)})
		if c1 < 0 || c2 < 0 || fd == nil {
			continue
		}
		codes[c1], codes[c2] = d2, d1
		cmapObj := fg.next
		fg.next++
		fg.objs[cmapObj] = streamObj(toUnicodeCMap(codes, ft.twoByte))
		nd := fd.Clone().(types.Dict)
		nd["ToUnicode"] = types.IndirectRef{ObjectNumber: types.Integer(cmapObj)}
		all := fg.glyphsIn(p, c.box)
		e := edits{}
		e.remove(all...)
		if !fg.apply(e) {
			continue
		}
		fg.addFont(p, "PBEdit", nd.PDFString())
		if !fg.redraw(p, all, 0, 0, "PBEdit") {
			continue
		}
		return forgery{data: fg.write(), page: c.page, box: c.box}, true
	}
	return forgery{}, false
}

func streamObj(b string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(b), b)
}

func toUnicodeCMap(codes map[int]string, twoByte bool) string {
	var b strings.Builder
	b.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n")
	format := "%02X"
	if twoByte {
		format = "%04X"
		b.WriteString("1 begincodespacerange <0000> <FFFF> endcodespacerange\n")
	} else {
		b.WriteString("1 begincodespacerange <00> <FF> endcodespacerange\n")
	}
	var keys []int
	for k := range codes {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for i := 0; i < len(keys); i += 100 {
		chunk := keys[i:min(len(keys), i+100)]
		fmt.Fprintf(&b, "%d beginbfchar\n", len(chunk))
		for _, k := range chunk {
			var u strings.Builder
			for _, r := range codes[k] {
				fmt.Fprintf(&u, "%04X", r)
			}
			fmt.Fprintf(&b, "<"+format+"> <%s>\n", k, u.String())
		}
		b.WriteString("endbfchar\n")
	}
	b.WriteString("endcmap CMapName currentdict /CMap defineresource pop end end\n")
	return b.String()
}

// editorMetadata names an editor as the file's producer.
func (fg *forger) editorMetadata(editor string) (forgery, bool) {
	info := types.Dict{}
	if d := fg.f.info(); d != nil {
		info = d.Clone().(types.Dict)
	}
	info["Producer"] = types.StringLiteral(editor)
	fg.info = fg.next
	fg.next++
	fg.objs[fg.info] = info.PDFString()
	return forgery{data: fg.write()}, true
}

// editorNames are the editors the metadata forgeries name, one per file in turn.
var editorNames = []string{"iLovePDF", "Sejda PDF Desktop (https://www.sejda.com)", "Smallpdf.com", "PDF24 Creator", "Foxit PDF Editor Printer Version 12.1"}

// swapPage puts page 2 of another statement in place of a's page 2.
func swapPage(t testing.TB, a, b []byte) []byte {
	t.Helper()
	return tool(t, "qpdf", [][]byte{a, b}, func(in []string, out string) []string {
		args := []string{in[0], "--pages", in[0], "1", in[1], "2"}
		if n, err := pageCount(a); err == nil && n > 2 {
			args = append(args, in[0], "3-z")
		}
		return append(args, "--", out)
	})
}

func pageCount(data []byte) (int, error) {
	f, err := readPDF(data, "", false)
	if err != nil {
		return 0, err
	}
	return len(f.pages), nil
}

// annotate adds a note and a highlight to page 1 in an incremental
// update, as a reviewer does: a genuine file's text is unchanged.
func (fg *forger) annotate() []byte {
	if len(fg.f.pages) == 0 || fg.f.pages[0].ref == 0 || len(revisions(fg.orig)) == 0 {
		return fg.orig
	}
	pg := fg.f.pages[0]
	note, mark := fg.next, fg.next+1
	fg.next += 2
	fg.objs[note] = "<< /Type /Annot /Subtype /Text /Rect [50 50 70 70] /Contents (checked) /Open false >>"
	fg.objs[mark] = "<< /Type /Annot /Subtype /Highlight /Rect [50 100 200 112] /QuadPoints [50 112 200 112 50 100 200 100] /C [1 1 0] >>"
	d := pg.dict.Clone().(types.Dict)
	annots, _ := fg.f.array(d["Annots"])
	annots = append(slices.Clone(annots), types.IndirectRef{ObjectNumber: types.Integer(note)}, types.IndirectRef{ObjectNumber: types.Integer(mark)})
	d["Annots"] = annots
	fg.objs[pg.ref] = d.PDFString()
	return fg.write()
}
