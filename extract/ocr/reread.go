package ocr

import (
	"image"
	"math"
	"regexp"
	"strings"
	"sync"

	"passbook/extract/source"
)

// Re-reading a figure on its own.
//
// The page is read in the sparse mode and, where that cut figures, in the
// block mode (vote.go). Some figures still come back in doubt: the two
// modes read different digits in the same place ("215.51" and "215.01"),
// or the figure is malformed in both ("07107" for "07/07", "215" "51").
// Each such figure is read a third time, on a crop of its own enlarged
// until its digits stand about rereadGlyphPx tall, as one line of text
// (page segmentation mode 7): a reading that depends neither on which
// mode segmented the page nor on its neighbours. The third reading
// decides between the other two, and mends a malformed figure only when
// it is a whole figure a mark or so away from what was read.

// psmLine reads the image as one line of text.
const psmLine segMode = "7"

// Re-reading bounds.
const (
	// rereadGlyphPx is the height, in pixels, a figure's box is enlarged
	// to on its crop (Tesseract's boxes hug the digits).
	rereadGlyphPx = 40
	// maxRereadScale bounds the enlargement, and minRereadScale makes it
	// one: the point is a reading at another scale than the page's.
	minRereadScale = 1.5
	maxRereadScale = 4.0
	// maxRereads bounds the crops read on one page: a page with more
	// figures in doubt than this is read badly throughout, and re-reading
	// figure by figure would cost more than the page.
	maxRereads = 40
)

// figureDoubt is a word of the reading whose figure is in doubt: at is its
// index in the words and, for a figure cut into two words, with is the
// index of its second piece (-1 for none). The word's alt is what another
// reading printed there, "" for a figure malformed in every reading.
//
// low marks a word read whole but with little confidence (below
// source.LowConf): a figure, a date or a sign's mark ("CR", "-"). Its
// crop confirms it when it reads the same, and the word is then as sure
// as the surer of the two readings; a row whose words stay uncertain is
// one a person checks first (the reading's low-confidence warning).
type figureDoubt struct {
	at, with int
	low      bool
}

// signMark matches a word that is a sign alone: a debit or credit mark or
// a minus or plus standing apart from its figure.
var signMark = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:CR|DR|Cr|Dr|[-+])$`) })

// figureKey is what two readings of a figure must share to be the same
// figure: its digits, and whether a minus sign or brackets stand around
// them (a dash between them is a date's).
func figureKey(s string) string {
	var b strings.Builder
	if t := strings.TrimRight(s, "CDRr"); strings.HasPrefix(s, "-") || strings.HasPrefix(s, "(") || strings.HasSuffix(t, "-") || strings.HasSuffix(t, ")") {
		b.WriteByte('-')
	}
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// slashDate matches a numeric date whose separators were read as a 1 or
// a 7, the digits they look like ("07107" for "07/07", "1471172024" for
// "14/11/2024"): day or month, a 1 or 7, month or day, and perhaps again
// a 1 or 7 and a year.
var slashDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9]{1,2})[17]([0-9]{2})(?:[17]([0-9]{2}|[0-9]{4}))?$`)
})

// rate matches a number with more decimals than money has, an exchange
// or interest rate ("1.0832"), printed as it is meant.
var rate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{1,3}[.,][0-9]{3,6}%?$`) })

// lostSlashes reports a word that may be a numeric date whose separators
// were read as digits: it matches slashDate with a day and a month in
// range, in either order.
func lostSlashes(s string) bool {
	m := slashDate().FindStringSubmatch(s)
	if m == nil {
		return false
	}
	a, b := atoi(m[1]), atoi(m[2])
	day := func(n int) bool { return n >= 1 && n <= 31 }
	month := func(n int) bool { return n >= 1 && n <= 12 }
	return (day(a) && month(b)) || (month(a) && day(b))
}

// atoi reads a short run of ASCII digits.
func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = 10*n + int(r-'0')
	}
	return n
}

// figureDoubts finds the words of a reading whose figure is in doubt:
// those two reading modes printed with other digits (alt), and those no
// mode printed whole: digits garbled with marks ("195:92;", "1.234.5"), a
// whole number followed within a word space by its two decimals ("351"
// "20"), a date whose separators came out as digits ("07107").
func figureDoubts(words []ocrWord) []figureDoubt {
	var out []figureDoubt
	paired := map[int]bool{}
	for i, w := range words {
		if w.alt != "" {
			out = append(out, figureDoubt{at: i, with: -1})
			continue
		}
		if w.conf < source.LowConf && (isWholeFigure(strings.Trim(w.text, "$€£")) || signMark().MatchString(w.text)) {
			out = append(out, figureDoubt{at: i, with: -1, low: true})
			continue
		}
		if paired[i] || !figureLike(w.text) || isWholeFigure(strings.Trim(w.text, "$€£~\"'")) {
			continue // a whole figure, perhaps with a currency mark or junk about it
		}
		if lostSlashes(w.text) || (strings.ContainsAny(w.text, ".,;:") && !cutWhole().MatchString(w.text) && !rate().MatchString(w.text)) {
			out = append(out, figureDoubt{at: i, with: -1})
			continue
		}
		if !cutWhole().MatchString(w.text) {
			continue
		}
		h := w.box.Dy()
		for j, next := range words {
			gap := next.box.Min.X - w.box.Max.X
			dy := next.box.Max.Y - w.box.Max.Y
			if j != i && !paired[j] && words[j].alt == "" && gap >= 0 && gap < h*13/10 && 3*max(dy, -dy) < h && cutCents().MatchString(next.text) {
				out = append(out, figureDoubt{at: i, with: j})
				paired[i], paired[j] = true, true
				break
			}
		}
	}
	return out
}

// rereadFigures reads each figure in doubt again on its own crop of g
// (prepared at dpi) and settles it:
//   - with another reading (the word's alt), the figure becomes the one the crop
//     agrees with (figureKey), and stays as it is when the crop agrees
//     with neither;
//   - without one, the figure is replaced by the crop's when that is a
//     whole figure and the same figure up to its marks: the same digits
//     where it was cut in two, otherwise as sameFigure says.
//
// It returns the words with the second pieces of mended cut figures
// removed.
func rereadFigures(g *image.Gray, dpi float64, words []ocrWord, doubts []figureDoubt) ([]ocrWord, error) {
	drop := map[int]bool{}
	for n, d := range doubts {
		if n == maxRereads {
			break
		}
		w := words[d.at]
		box, cur := w.box, w.text
		if w.alt != "" {
			// The other reading's box too: a sign or digit only it
			// saw stands outside this one.
			box = box.Union(w.altBox)
		}
		if d.with >= 0 {
			box = box.Union(words[d.with].box)
			cur += words[d.with].text
		}
		if d.low {
			if err := confirmWord(g, dpi, &words[d.at]); err != nil {
				return nil, err
			}
			continue
		}
		text, conf, err := readFigureCrop(g, dpi, box)
		if err != nil {
			return nil, err
		}
		if !isWholeFigure(text) {
			continue
		}
		k := figureKey(text)
		switch {
		case w.alt != "":
			if k != figureKey(w.alt) || k == figureKey(cur) {
				continue
			}
		case d.with >= 0:
			if k != figureKey(cur) {
				continue
			}
		default:
			if !sameFigure(text, cur) {
				continue
			}
		}
		words[d.at].text, words[d.at].box = text, box
		words[d.at].conf = math.Min(w.conf, conf)
		if d.with >= 0 {
			words[d.at].conf = math.Min(words[d.at].conf, words[d.with].conf)
			drop[d.with] = true
		}
	}
	if len(drop) == 0 {
		return words, nil
	}
	out := words[:0]
	for i, w := range words {
		if !drop[i] {
			out = append(out, w)
		}
	}
	return out, nil
}

// confirmWord reads a word read with little confidence again on its own
// crop. The same figure or sign read there makes the word as sure as the
// surer of the two readings; anything else leaves it as read, and
// uncertain: two readings that differ do not say which is right.
func confirmWord(g *image.Gray, dpi float64, w *ocrWord) error {
	if signMark().MatchString(w.text) {
		words, _, err := recognize(upscaleGray(figureCrop(g, w.box), rereadScale(w.box)), dpi*rereadScale(w.box), "eng", psmLine)
		if err != nil {
			return err
		}
		if len(words) == 1 && strings.EqualFold(words[0].text, w.text) {
			w.conf = math.Max(w.conf, words[0].conf)
		}
		return nil
	}
	text, conf, err := readFigureCrop(g, dpi, w.box)
	if err != nil {
		return err
	}
	if text == strings.Trim(w.text, "$€£") {
		w.conf = math.Max(w.conf, conf)
	}
	return nil
}

// rereadScale is the enlargement of a crop of a word of box r.
func rereadScale(r image.Rectangle) float64 {
	return math.Max(minRereadScale, math.Min(maxRereadScale, rereadGlyphPx/float64(max(1, r.Dy()))))
}

// readFigureCrop reads the figure in box r of g alone: a crop with room
// around it, enlarged to rereadGlyphPx, read as one line. The figure is
// the longest run of the line's figure-like words, joined without spaces
// ("215." "51" is "215.51"); conf is their lowest confidence.
func readFigureCrop(g *image.Gray, dpi float64, r image.Rectangle) (string, float64, error) {
	f := rereadScale(r)
	c := upscaleGray(figureCrop(g, r), f)
	words, _, err := recognize(c, dpi*f, "eng", psmLine)
	if err != nil {
		return "", 0, err
	}
	best, bestConf, run, runConf := "", 0.0, "", 100.0
	minusLike := func(s string) string {
		// A minus sign read as a quote or tilde, as repairAmounts takes it.
		if s != "" && strings.ContainsRune("~\"'", rune(s[0])) {
			return "-" + s[1:]
		}
		return s
	}
	for _, w := range words {
		if !figureLike(w.text) {
			run, runConf = "", 100
			continue
		}
		if run == "" {
			run = minusLike(w.text)
		} else {
			run += w.text
		}
		runConf = math.Min(runConf, w.conf)
		if len(run) > len(best) {
			best, bestConf = run, runConf
		}
	}
	return best, bestConf, nil
}

// figureCrop copies box r of g with a margin of paper around it: Tesseract
// reads a line best with some white about it, and the box hugs the ink.
// The crop takes in a third of the box's height of the page above and
// below, for marks that stand lower or higher than the digits, and a
// quarter either side: more took in a table's rule or a neighbour's
// last character, read as a digit of the figure.
func figureCrop(g *image.Gray, r image.Rectangle) *image.Gray {
	h := max(4, r.Dy())
	src := image.Rect(r.Min.X-h/4, r.Min.Y-h/3, r.Max.X+h/4, r.Max.Y+h/3).Intersect(g.Rect)
	pad := h / 2
	out := image.NewGray(image.Rect(0, 0, src.Dx()+2*pad, src.Dy()+2*pad))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	for y := src.Min.Y; y < src.Max.Y; y++ {
		copy(out.Pix[(y-src.Min.Y+pad)*out.Stride+pad:], g.Pix[g.PixOffset(src.Min.X, y):][:src.Dx()])
	}
	return out
}

// sameFigure reports whether crop, a whole figure, is the figure cur
// garbled: the same digits and sign, its marks aside ("195:92;" for
// "195.92"), or with up to two separators read as digits ("07107" for
// "07/07": cur's digits are crop's with a 1 put in).
func sameFigure(crop, cur string) bool {
	kc, ku := figureKey(crop), figureKey(cur)
	if strings.HasPrefix(kc, "-") != strings.HasPrefix(ku, "-") || len(ku) < len(kc) || len(ku)-len(kc) > 2 {
		return false
	}
	j := 0
	for i := 0; i < len(ku) && j < len(kc); i++ {
		if ku[i] == kc[j] {
			j++
		}
	}
	return j == len(kc)
}
