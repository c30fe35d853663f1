package redact

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"image"
	"math"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/shopspring/decimal"
	"golang.org/x/image/draw"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"passbook/extract/layout"
	"passbook/extract/source"
)

// A scan's or a photo's copy is its pages as recognition read them
// (extract/ocr.ReadPrepared: cropped, scaled, contrast flattened, turned
// and deskewed, in grey), not the original pixels: the words' boxes are
// in that image's pixels, so what is painted over is exactly what was
// read, and the copy, recognised again, starts from a page already
// prepared. On each page every personal word is painted over with the
// paper around it and its replacement drawn in its box, in the darkest
// grey of its ink; each amount and balance is painted over and its new
// figure drawn right-aligned at the old one's right edge. Dates,
// headings, column labels and the bank's name stay as pixels. The
// replacements are drawn in Go Regular (golang.org/x/image/font/gofont,
// BSD, embedded in the binary): a plain sans-serif whose digits
// recognition reads back reliably.

// Fidelity is the sidecar's sentence for a copy of a scan or photo.
const Fidelity = "This copy of a scan or photo is less faithful than a text statement's: its pages are the images recognition read (in grey, cropped and straightened), with every personal word painted over and redrawn in a plain font, and every amount and balance redrawn at its right edge."

// LowConfidence is the sidecar's sentence on words recognised at low
// confidence.
const LowConfidence = "Words recognised at low confidence are replaced like personal words unless they read as a word the reading relies on; those with no letter or digit (a name or a signature recognition could not read) are painted over with nothing drawn."

// imagePaint is one word's or figure's box painted over, and what is
// drawn in it ("" for nothing).
type imagePaint struct {
	box   [4]float64 // points, as the words
	old   string     // what the box printed, to size the new text
	text  string
	right bool // a figure: drawn from the box's right edge
	word  string
}

// imagePlan is a recognised copy's plan: boxes to paint, page by page.
type imagePlan struct {
	p      *planner
	paints [][]imagePaint
	// personal words, for one replacement each wherever printed.
	words []*imagePaint
}

func (ip *imagePlan) kept(int, []source.Word) {}

func (ip *imagePlan) date(int, layout.Token, []source.Word) error { return nil }

func (ip *imagePlan) replace(pi int, w source.Word) {
	ip.paints[pi] = append(ip.paints[pi], imagePaint{box: [4]float64{w.X0, w.Y0, w.X1, w.Y1}, old: w.Text, word: w.Text})
}

func (ip *imagePlan) figure(pi int, t layout.Token, ws []source.Word, nv decimal.Decimal) error {
	if len(ws) == 0 {
		return nil
	}
	var parts []string
	box := [4]float64{ws[0].X0, ws[0].Y0, ws[0].X1, ws[0].Y1}
	for _, w := range ws {
		parts = append(parts, w.Text)
		box = [4]float64{min(box[0], w.X0), min(box[1], w.Y0), max(box[2], w.X1), max(box[3], w.Y1)}
	}
	old := strings.Join(parts, " ")
	rs := []rune(old)
	first := slices.IndexFunc(rs, unicode.IsDigit)
	if first < 0 {
		return nil
	}
	last := first
	for i, r := range rs {
		if unicode.IsDigit(r) {
			last = i
		}
	}
	oldDec := 0
	if e := t.Amount.Exponent(); e < 0 {
		oldDec = int(-e)
	}
	dec := oldDec
	if dec < ip.p.minor && !nv.Equal(nv.Round(int32(dec))) {
		dec = ip.p.minor
	}
	digits := formatLike(string(rs[first:last+1]), nv.Abs(), oldDec, dec, ip.p.groupSep, ip.p.mark)
	text := string(rs[:first]) + digits + string(rs[last+1:])
	ip.paints[pi] = append(ip.paints[pi], imagePaint{box: box, old: old, text: text, right: true})
	return nil
}

// replaceWords draws each personal word's replacement: letter for
// letter in its script and case, digit for digit, the same word by the
// same replacement everywhere, never one of the original's personal
// words.
//
// again, when not nil, are the words to draw anew (redraw): the others
// keep the replacement they have.
func (ip *imagePlan) replaceWords(again map[string]bool) {
	personal := map[string]bool{}
	for _, w := range ip.p.personal {
		personal[strings.ToLower(w)] = true
	}
	alpha := ip.alphabets()
	memo := map[string]string{}
	for pi := range ip.paints {
		for i := range ip.paints[pi] {
			pt := &ip.paints[pi][i]
			if pt.right || again != nil && !again[pt.word] {
				continue
			}
			if m, ok := memo[pt.word]; ok {
				pt.text = m
				continue
			}
			var out []rune
			for try := 0; try < redrawTries; try++ {
				out = out[:0]
				for _, r := range pt.word {
					c := imageClass(r)
					if c == "" {
						out = append(out, r)
						continue
					}
					cands := slices.DeleteFunc(slices.Clone(alpha[c]), func(a rune) bool { return a == r })
					if len(cands) == 0 {
						// Nothing of its class to draw instead: left out.
						continue
					}
					out = append(out, cands[ip.p.rnd.IntN(len(cands))])
				}
				if !personal[strings.ToLower(string(out))] {
					break
				}
			}
			if strings.IndexFunc(pt.word, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
				// A doubtful mark: painted over, nothing drawn.
				out = nil
			}
			pt.text = string(out)
			memo[pt.word] = pt.text
		}
	}
}

// alphabets lists, for each class of character, what may replace one:
// digits, plainLetters, and the letters of other scripts the
// document's own words print that Go Regular draws.
func (ip *imagePlan) alphabets() map[string][]rune {
	out := map[string][]rune{}
	seen := map[rune]bool{}
	add := func(r rune) {
		if strings.ContainsRune(confusable, r) {
			return
		}
		if c := imageClass(r); c != "" && !seen[r] && drawsRune(r) {
			seen[r] = true
			out[c] = append(out[c], r)
		}
	}
	for r := '0'; r <= '9'; r++ {
		add(r)
	}
	for _, r := range plainLetters {
		add(r)
		add(unicode.ToUpper(r))
	}
	for _, pg := range ip.p.pages {
		for _, w := range pg.Words {
			for _, r := range w.Text {
				if r >= 0x80 {
					add(r)
				}
			}
		}
	}
	for _, rs := range out {
		slices.Sort(rs)
	}
	return out
}

// plainLetters are the unaccented letters a replacement draws: the
// vowels and the commoner consonants, whose words recognition reads with
// more confidence than strings of j, q, x and z.
const plainLetters = "aeioubcdfghkmnprstw"

// confusable are the characters a replacement never draws: recognition
// reads them for one another (I, l and 1; O, Q and 0), and with little
// confidence ("0326…" read as "326…" at 1).
const confusable = "IlOQ0"

// imageClass is class, with the unaccented Latin vowels a class of
// their own: a replacement that keeps a word's vowels where they were
// reads as a word, which recognition reads back with the confidence of
// print ("WMXKESPD" read at 20, "MOLVEDAT" at 90), so that the copy's
// rows are as sure as the original's.
func imageClass(r rune) string {
	c := class(r)
	if strings.HasPrefix(c, "ascii/") && strings.ContainsRune("aeiouAEIOU", r) {
		return c + "/vowel"
	}
	return c
}

// goFont is Go Regular, parsed once.
var goFont = sync.OnceValues(func() (*opentype.Font, error) { return opentype.Parse(goregular.TTF) })

// drawsRune reports a character Go Regular has a glyph for.
func drawsRune(r rune) bool {
	f, err := goFont()
	if err != nil {
		return false
	}
	var b sfnt.Buffer
	i, err := f.GlyphIndex(&b, r)
	return err == nil && i != 0
}

// paintPage paints a page's plan on a copy of its image: every box
// painted over first, then every replacement drawn, so that no box's
// paper covers a neighbour's new text.
func paintPage(g *image.Gray, pageW float64, paints []imagePaint) (*image.Gray, error) {
	out := image.NewGray(g.Rect)
	copy(out.Pix, g.Pix)
	k := float64(g.Rect.Dx()) / pageW // pixels a point
	type placed struct {
		ink   image.Rectangle // the old text's ink
		tone  uint8
		scale float64 // pixels a unit of Go Regular, from its ink's height
		line  [2]int
	}
	ps := make([]placed, len(paints))
	lines := map[[2]int][]float64{}
	for i, pt := range paints {
		r := image.Rect(int(math.Floor(pt.box[0]*k)), int(math.Floor(pt.box[1]*k)), int(math.Ceil(pt.box[2]*k)), int(math.Ceil(pt.box[3]*k))).Add(g.Rect.Min)
		bg, ink := tones(g, r)
		ib := inkBox(g, r, bg, ink)
		ps[i] = placed{ink: ib, tone: ink, scale: inkScale(pt.old, ib.Dy()), line: [2]int{r.Min.Y, r.Max.Y}}
		if ps[i].scale > 0 {
			lines[ps[i].line] = append(lines[ps[i].line], ps[i].scale)
		}
		// Anti-aliased edges stand a pixel or two beyond the box.
		pad := max(2, r.Dy()/10)
		fill := r.Inset(-pad).Intersect(out.Rect)
		for y := fill.Min.Y; y < fill.Max.Y; y++ {
			row := out.Pix[out.PixOffset(fill.Min.X, y):out.PixOffset(fill.Max.X, y)]
			for i := range row {
				row[i] = bg
			}
		}
	}
	for i, pt := range paints {
		p := ps[i]
		if pt.text == "" || p.scale <= 0 {
			continue
		}
		// One size for a line's words (recognition gives them its
		// height, ocr's lineHeights): the median of what each word's ink
		// says, which a word's letters, unlike Go Regular's, may skew.
		// A figure keeps its own: it must read back digit for digit.
		ss := slices.Sorted(slices.Values(lines[p.line]))
		sy := ss[len(ss)/2]
		if pt.right {
			sy = p.scale
		}
		if err := drawText(out, p.ink, pt.old, pt.text, pt.right, p.tone, p.scale, sy); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tones are the paper's grey around a box (the median of a ring of
// pixels just outside it) and its ink's (the darkest in it).
func tones(g *image.Gray, r image.Rectangle) (bg, ink uint8) {
	var ring, in []uint8
	outer := r.Inset(-max(4, r.Dy()/4)).Intersect(g.Rect)
	inner := r.Inset(-2)
	for y := outer.Min.Y; y < outer.Max.Y; y++ {
		for x := outer.Min.X; x < outer.Max.X; x++ {
			v := g.Pix[g.PixOffset(x, y)]
			switch p := (image.Point{x, y}); {
			case p.In(r):
				in = append(in, v)
			case !p.In(inner):
				ring = append(ring, v)
			}
		}
	}
	bg, ink = 255, 0
	if len(ring) > 0 {
		slices.Sort(ring)
		bg = ring[len(ring)/2]
	}
	if len(in) > 0 {
		slices.Sort(in)
		ink = in[len(in)*3/100]
	}
	// Print at least clearly darker than its paper.
	if int(ink) > int(bg)-120 {
		ink = uint8(max(0, int(bg)-160))
	}
	return bg, ink
}

// inkBox is the box the ink within r fills: a recognised word's box
// spans its whole line's height (ocr's lineHeights), its letters may not
// ("on" beside "ON"); r when no ink stands out.
func inkBox(g *image.Gray, r image.Rectangle, bg, ink uint8) image.Rectangle {
	thr := (int(bg) + int(ink)) / 2
	in := r.Intersect(g.Rect)
	out := image.Rectangle{}
	for y := in.Min.Y; y < in.Max.Y; y++ {
		for x := in.Min.X; x < in.Max.X; x++ {
			if int(g.Pix[g.PixOffset(x, y)]) < thr {
				out = out.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if out.Dx() < 2 || out.Dy() < 2 {
		return r
	}
	return out
}

// face is Go Regular at unitEm pixels an em, to measure and draw at.
const unitEm = 64

func unitFace() (xfont.Face, error) {
	f, err := goFont()
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: unitEm, DPI: 72, Hinting: xfont.HintingNone})
}

// inkScale is how many pixels a pixel of Go Regular at unitEm is for
// text printed inkH pixels tall; 0 when it has no ink.
func inkScale(text string, inkH int) float64 {
	face, err := unitFace()
	if err != nil {
		return 0
	}
	defer face.Close()
	b, _ := xfont.BoundString(face, text)
	if h := float64(b.Max.Y-b.Min.Y) / 64; h > 0 {
		return float64(inkH) / h
	}
	return 0
}

// drawText draws text where old was printed, its ink in r: its baseline
// where old's was (by old's own scale, own), at the line's size (sy),
// each character as wide as old's are in r; from r's right edge when
// right (a figure), else from its left, never past r (a word).
func drawText(dst *image.Gray, r image.Rectangle, old, text string, right bool, ink uint8, own, sy float64) error {
	face, err := unitFace()
	if err != nil {
		return err
	}
	defer face.Close()
	ob, _ := xfont.BoundString(face, old)
	nb, _ := xfont.BoundString(face, text)
	ow := float64(ob.Max.X-ob.Min.X) / 64
	nw := (nb.Max.X - nb.Min.X).Ceil()
	nh := (nb.Max.Y - nb.Min.Y).Ceil()
	if ow <= 0 || nw <= 0 || nh <= 0 {
		return nil
	}
	sx := float64(r.Dx()) / ow
	// A box much wider or narrower than the old text in Go Regular
	// (a misread, a wide face): keep the letters' shape within reason.
	sx = min(max(sx, sy*0.6), sy*1.6)
	if !right && float64(nw)*sx > float64(r.Dx()) {
		// A word's replacement stays in its box: past it, it would run
		// into the next word.
		sx = float64(r.Dx()) / float64(nw)
	}
	// The new text's ink, drawn at unit size on a mask with its own
	// baseline, then scaled into place.
	mask := image.NewAlpha(image.Rect(0, 0, nw+2, nh+2))
	d := xfont.Drawer{Dst: mask, Src: image.Opaque, Face: face, Dot: fixed.Point26_6{X: -nb.Min.X + fixed.I(1), Y: -nb.Min.Y + fixed.I(1)}}
	d.DrawString(text)
	w := int(math.Round(float64(nw+2) * sx))
	h := int(math.Round(float64(nh+2) * sy))
	x0 := r.Min.X
	if right {
		x0 = r.Max.X - w
	}
	baseline := float64(r.Min.Y) - float64(ob.Min.Y)/64*own
	y0 := int(math.Round(baseline + (float64(nb.Min.Y)/64-1)*sy))
	target := image.Rect(x0, y0, x0+w, y0+h)
	scaled := image.NewAlpha(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(scaled, scaled.Rect, mask, mask.Rect, draw.Src, nil)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := image.Point{target.Min.X + x, target.Min.Y + y}
			if !p.In(dst.Rect) {
				continue
			}
			a := int(scaled.Pix[scaled.PixOffset(x, y)])
			if a == 0 {
				continue
			}
			i := dst.PixOffset(p.X, p.Y)
			cur := int(dst.Pix[i])
			dst.Pix[i] = uint8((cur*(255-a) + int(ink)*a) / 255)
		}
	}
	return nil
}

// imagePDF writes page images as a PDF, one page each, page i sized
// sizes[i] points: the images compressed losslessly (Flate), nothing
// else, no Info dictionary and no metadata.
func imagePDF(pages []*image.Gray, sizes [][2]float64) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	var offsets []int
	obj := func(body string, stream []byte) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s", len(offsets), body)
		if stream != nil {
			b.WriteString("\nstream\n")
			b.Write(stream)
			b.WriteString("\nendstream")
		}
		b.WriteString("\nendobj\n")
	}
	n := len(pages)
	var kids []string
	for i := range n {
		kids = append(kids, fmt.Sprintf("%d 0 R", 3+3*i))
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /Pages /Count %d /Kids [%s] >>", n, strings.Join(kids, " ")), nil)
	for i, g := range pages {
		w, h := sizes[i][0], sizes[i][1]
		base := 3 + 3*i
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.3f %.3f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>", w, h, base+2, base+1), nil)
		content := fmt.Sprintf("q %.3f 0 0 %.3f 0 0 cm /Im0 Do Q", w, h)
		obj(fmt.Sprintf("<< /Length %d >>", len(content)), []byte(content))
		var z bytes.Buffer
		zw, err := zlib.NewWriterLevel(&z, zlib.BestSpeed)
		if err != nil {
			return nil, err
		}
		dx, dy := g.Rect.Dx(), g.Rect.Dy()
		for y := range dy {
			if _, err := zw.Write(g.Pix[y*g.Stride : y*g.Stride+dx]); err != nil {
				return nil, err
			}
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>", dx, dy, z.Len()), z.Bytes())
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes(), nil
}

// copyImages makes a recognised statement's copy and checks it: the
// original's factor and replacements first; where the copy, recognised
// again, reads a replaced word with less confidence than the original's
// reading had (random letters are no word), those words are drawn again
// with other letters, up to imageTries copies; a copy that reads
// otherwise draws a new factor and new words.
func copyImages(orig Reading, read Reader, rnd *mrand.Rand) ([]byte, Sidecar, error) {
	var ip *imagePlan
	var want expected
	var err error
	for try := 0; try < imageTries; try++ {
		if ip == nil {
			factor := drawFactor(rnd)
			if try > 0 {
				factor = steadyFactor(rnd, orig.Result)
			}
			if ip, want, err = planImages(orig, factor, rnd); err != nil {
				return nil, Sidecar{}, err
			}
		}
		out, err := paintImages(orig, ip)
		if err != nil {
			return nil, Sidecar{}, err
		}
		cp, err := read(out, "")
		if err != nil {
			return nil, Sidecar{}, refuse("the copy cannot be read again: %v", err)
		}
		side, cerr := verify(out, cp, orig, want)
		if cerr == nil {
			return out, side, nil
		}
		if try == imageTries-1 {
			return nil, Sidecar{}, cerr
		}
		if again := ip.doubted(cp); len(again) > 0 && !errors.Is(cerr, errLeak) {
			ip.replaceWords(again)
		} else {
			ip = nil
		}
	}
	return nil, Sidecar{}, refuse("no copy made")
}

// doubted are the replaced words under the copy's words recognised at
// low confidence.
func (ip *imagePlan) doubted(cp Reading) map[string]bool {
	out := map[string]bool{}
	for pi, pg := range cp.Doc.Pages {
		if pi >= len(ip.paints) {
			break
		}
		for _, w := range pg.Words {
			if w.Conf <= 0 || w.Conf >= source.LowConf {
				continue
			}
			cx, cy := (w.X0+w.X1)/2, (w.Y0+w.Y1)/2
			for _, pt := range ip.paints[pi] {
				const slack = 2 // points: the copy is cropped and scaled again
				if !pt.right && pt.text != "" && cx >= pt.box[0]-slack && cx <= pt.box[2]+slack && cy >= pt.box[1]-slack && cy <= pt.box[3]+slack {
					out[pt.word] = true
				}
			}
		}
	}
	return out
}

// planImages sorts a recognised statement's words (classify) into boxes
// to paint and what to draw in them, with one factor.
func planImages(orig Reading, factor decimal.Decimal, rnd *mrand.Rand) (*imagePlan, expected, error) {
	p := &planner{pages: orig.Doc.Pages, res: orig.Result, factor: factor, rnd: rnd, groupSep: groupSep(orig), images: true}
	p.keep, p.heads = keptWords(bankName(orig))
	ip := &imagePlan{p: p, paints: make([][]imagePaint, len(orig.Doc.Pages))}
	values, inFigure, err := p.classify(ip)
	if err != nil {
		return nil, expected{}, err
	}
	ip.replaceWords(nil)
	p.personal = slices.DeleteFunc(p.personal, func(w string) bool { return inFigure[w] })
	return ip, expected{rows: values.rows, named: values.named, personal: p.personal, recognised: true}, nil
}

// paintImages paints a plan on the pages' images and writes them as a
// PDF.
func paintImages(orig Reading, ip *imagePlan) ([]byte, error) {
	imgs := make([]*image.Gray, len(orig.Doc.Pages))
	sizes := make([][2]float64, len(orig.Doc.Pages))
	var err error
	for i, pg := range orig.Doc.Pages {
		if imgs[i], err = paintPage(orig.Images[i], pg.Width, ip.paints[i]); err != nil {
			return nil, refuse("page %d cannot be painted: %v", i+1, err)
		}
		sizes[i] = [2]float64{pg.Width, pg.Height}
	}
	out, err := imagePDF(imgs, sizes)
	if err != nil {
		return nil, refuse("the copy cannot be written: %v", err)
	}
	return out, nil
}
