package ocr

import (
	"image"
	"sort"
	"strings"
	"unicode"
)

// Scripts other than Latin.
//
// The page is read first with the English model. A page printed in
// another script comes out of it as Latin letters read at a guess
// ("Υπόλοιπο" as "YrtdAourto"): words of letters only, most of them
// read with little confidence. When a page has enough of those, a strip
// of them is read again with the model of each script below, and the
// model that reads them with clearly more confidence than English reads
// the page, beside English (mergeable pages: an English heading and an
// Arabic one). Tesseract's own script detection (OSD, osd.traineddata)
// was tried first: it named a Greek statement's page Latin (its figures,
// dates and merchants are), cost about a second and a 10 MB model.

// scriptModels are the embedded Tesseract models that read a script
// other than Latin, one a script (Debian's language packs, Tesseract's
// "fast" models: 1–4 MB each where the script packs weigh 3–29 MB), in
// the order they are tried.
var scriptModels = []string{"rus", "ell", "ara", "heb", "hin", "tha", "chi_sim", "chi_tra", "jpn", "kor"}

// Script probe bounds.
const (
	// probeConf: a word of letters read by English with less confidence
	// than this is one another script may have printed.
	probeConf = 80
	// minProbeWords of them, and a sixth of the page's words of
	// letters, make a page worth probing.
	minProbeWords = 3
	// maxProbeWords are read on the strip: the least confident.
	maxProbeWords = 12
	// scriptGain is how much more confident (mean, 0–100) a script's
	// model must read the strip than English to read the page.
	scriptGain = 15
	// scriptSure ends the probe: a model this confident, and clearly
	// more than English, is the script's.
	scriptSure = 85
)

// letterWord reports whether s, its punctuation and symbols aside, is a
// word of at least two letters: what a page in another script reads as
// in English.
func letterWord(s string) bool {
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
	n := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
		n++
	}
	return n >= 2
}

// probeWords picks the words of a reading that another script may have
// printed: words of letters read with little confidence, the least
// confident first, and their share of the page's words of letters. It
// returns none when too few of them are such.
func probeWords(words []ocrWord) ([]ocrWord, float64) {
	var letters, doubt []ocrWord
	for _, w := range words {
		if !letterWord(w.text) {
			continue
		}
		letters = append(letters, w)
		if w.conf < probeConf {
			doubt = append(doubt, w)
		}
	}
	if len(doubt) < minProbeWords || 6*len(doubt) < len(letters) {
		return nil, 0
	}
	share := float64(len(doubt)) / float64(len(letters))
	sort.SliceStable(doubt, func(i, j int) bool { return doubt[i].conf < doubt[j].conf })
	return doubt[:min(len(doubt), maxProbeWords)], share
}

// probeStrip stacks crops of the words, one under another with paper
// between them, into one image: a script is tried on it at the cost of
// a few lines, not a page.
func probeStrip(g *image.Gray, words []ocrWord) *image.Gray {
	crops := make([]*image.Gray, len(words))
	w, h := 0, 0
	for i, wd := range words {
		crops[i] = figureCrop(g, wd.box)
		w = max(w, crops[i].Rect.Dx())
		h += crops[i].Rect.Dy()
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	for i := range out.Pix {
		out.Pix[i] = 255
	}
	y := 0
	for _, c := range crops {
		for row := 0; row < c.Rect.Dy(); row++ {
			copy(out.Pix[(y+row)*out.Stride:], c.Pix[row*c.Stride:][:c.Rect.Dx()])
		}
		y += c.Rect.Dy()
	}
	return out
}

// pageScript finds the model of the script a page read in English is
// printed in, "" for Latin (or for a page too poorly read to tell). share
// is the part of the page's words of letters the probe found in doubt:
// over a third, the page is the script's; less, the script stands beside
// Latin (a heading), and English leads.
func pageScript(g *image.Gray, dpi float64, words []ocrWord) (model string, share float64, err error) {
	probe, share := probeWords(words)
	if probe == nil {
		return "", 0, nil
	}
	strip := probeStrip(g, probe)
	_, base, err := recognize(strip, dpi, "eng", psmBlock)
	if err != nil {
		return "", 0, err
	}
	best, bestConf := "", base+scriptGain
	for _, m := range scriptModels {
		read, conf, err := recognize(strip, dpi, m, psmBlock)
		if err != nil {
			return "", 0, err
		}
		if conf <= bestConf || !inScript(read) {
			continue
		}
		best, bestConf = m, conf
		if conf >= scriptSure {
			break
		}
	}
	if best == "" {
		return "", 0, nil
	}
	return best, share, nil
}

// inScript reports whether most letters a script's model read are not
// Latin: a model reads Latin print too (its digits and
// the English words its training text held), and its confidence on
// those says nothing of the script.
func inScript(words []ocrWord) bool {
	latin, other := 0, 0
	for _, w := range words {
		for _, r := range w.text {
			switch {
			case !unicode.IsLetter(r):
			case unicode.Is(unicode.Latin, r):
				latin++
			default:
				other++
			}
		}
	}
	return other > latin
}

// scriptLangs is the language set a page of script model m is read with:
// the script's model first on a page mostly in it, English first on a
// page of Latin with some of it.
func scriptLangs(m string, share float64) string {
	if share >= 1.0/3 {
		return m + "+eng"
	}
	return "eng+" + m
}

// greekMu maps the micro sign, which the Greek model reads for some of
// its mu (U+00B5 for U+03BC), to the letter, in a word of Greek letters.
func greekMu(s string) string {
	if !strings.ContainsRune(s, 'µ') {
		return s
	}
	for _, r := range s {
		if unicode.Is(unicode.Greek, r) {
			return strings.ReplaceAll(s, "µ", "μ")
		}
	}
	return s
}

// keepEnglish gives back, on a page read with a script's model, what the
// English reading read with more confidence in the same place where both
// are figures, or where the script's reading is a short word of capitals
// and English read as many Latin capitals there: a script's model reads
// the Latin codes a statement prints beside its words in its own letters
// that look alike ("DKK" as Cyrillic "ОКК", "CR" as "СК").
func keepEnglish(words, eng []ocrWord) {
	for i, w := range words {
		fig := figureLike(w.text)
		if !fig && !capitalsCode(w.text) {
			continue
		}
		e, ok := samePlace(w.box, eng)
		if !ok || e.conf <= w.conf || e.text == w.text {
			continue
		}
		if fig && !figureLike(e.text) {
			continue
		}
		if !fig && (!latinCapitals(e.text) || len([]rune(e.text)) != len([]rune(w.text))) {
			continue
		}
		words[i].text, words[i].conf = e.text, e.conf
	}
}

// capitalsCode reports a word of two to five capitals: a currency code
// or a debit or credit mark.
func capitalsCode(s string) bool {
	n := 0
	for _, r := range s {
		if !unicode.IsUpper(r) {
			return false
		}
		n++
	}
	return n >= 2 && n <= 5
}

// latinCapitals reports a word of Latin capitals only.
func latinCapitals(s string) bool {
	for _, r := range s {
		if !unicode.IsUpper(r) || !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return s != ""
}

// samePlace finds the word of ws whose box overlaps r over most of both.
func samePlace(r image.Rectangle, ws []ocrWord) (ocrWord, bool) {
	area := func(a image.Rectangle) int { return a.Dx() * a.Dy() }
	for _, w := range ws {
		in := area(r.Intersect(w.box))
		if 3*in >= 2*area(r) && 3*in >= 2*area(w.box) {
			return w, true
		}
	}
	return ocrWord{}, false
}
