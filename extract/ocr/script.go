package ocr

import (
	"image"
	"sort"
	"strings"
	"sync"
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
var scriptModels = []string{"rus", "ell", "ara", "heb", "hin", "tha", "kor", "jpn", "chi_sim", "chi_tra"}

// hanModels read Han characters as Japanese's does: they are tried only
// when Japanese's wins two words.
var hanModels = map[string]bool{"chi_sim": true, "chi_tra": true}

// lastScript is the model that won the last page probed: a document's
// pages share their script, so it is tried first, and when it wins most
// words the other models are not loaded.
var lastScript struct {
	sync.Mutex
	model string
}

// probeOrder is scriptModels with the last page's winner first, and
// that winner ("" for none).
func probeOrder() ([]string, string) {
	lastScript.Lock()
	last := lastScript.model
	lastScript.Unlock()
	out := make([]string, 0, len(scriptModels))
	if last != "" {
		out = append(out, last)
	}
	for _, m := range scriptModels {
		if m != last {
			out = append(out, m)
		}
	}
	return out, last
}

// Script probe bounds.
const (
	// probeConf: a word of letters read by English with less confidence
	// than this is one another script may have printed.
	probeConf = 80
	// minProbeWords of them, and a sixth of the page's words of
	// letters, make a page worth probing.
	minProbeWords = 3
	// maxProbeWords are read on the strip: the least confident.
	maxProbeWords = 8
	// scriptGain is how much more confident (0–100) a script's model
	// must read a word than English to win it, and minScriptConf how
	// confident at least.
	scriptGain    = 15
	minScriptConf = 50
	// scriptMargin is how much more confident than in the Latin words
	// it reads as its own a model must read a word to win it.
	scriptMargin = 10
	// maxControlWords words English read with controlConf at least
	// stand on the strip beside them (controlWords).
	maxControlWords = 3
	controlConf     = 90
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
// confident first. It returns none when too few of the page's words of
// letters are such.
func probeWords(words []ocrWord) []ocrWord {
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
		return nil
	}
	sort.SliceStable(doubt, func(i, j int) bool { return doubt[i].conf < doubt[j].conf })
	return doubt[:min(len(doubt), maxProbeWords)]
}

// probeStrip stacks crops of the words, one under another, into one
// image: a script is tried on it at the cost of a few lines, not a page.
// It returns the strip and where each word's crop ends on it (its last
// row, exclusive).
func probeStrip(g *image.Gray, words []ocrWord) (*image.Gray, []int) {
	crops := make([]*image.Gray, len(words))
	ends := make([]int, len(words))
	w, h := 0, 0
	for i, wd := range words {
		crops[i] = figureCrop(g, wd.box)
		w = max(w, crops[i].Rect.Dx())
		h += crops[i].Rect.Dy()
		ends[i] = h
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
	return out, ends
}

// controlWords are words of Latin letters the English reading is sure of:
// how confidently a model reads them as its own script is how confidently
// it reads print it cannot read (Thai's read a photo's blurred "União"
// as Thai at 88% confidence, and "Meridian" at 66%).
func controlWords(words []ocrWord) []ocrWord {
	var out []ocrWord
	for _, w := range words {
		if len(out) < maxControlWords && w.conf >= controlConf && letterWord(w.text) && len([]rune(w.text)) >= 4 {
			out = append(out, w)
		}
	}
	return out
}

// hasKana reports Japanese's syllabaries in s.
func hasKana(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana) {
			return true
		}
	}
	return false
}

// lookalikes are the Cyrillic and Greek letters that look like Latin
// ones.
const lookalikes = "АаВЕеЗКкМНОоРрСсТуХхІіЈјЅѕԁԛԝΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορτυχ"

// latinLookalike reports a word of letters that all look like Latin
// ones: Cyrillic's model reads "Caixa" as "Саха", which says nothing of
// whether it reads anything as Cyrillic.
func latinLookalike(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) && !strings.ContainsRune(lookalikes, r) {
			return false
		}
	}
	return true
}

// cropReading is what one model read on one word's crop of the strip.
type cropReading struct {
	text string
	conf float64 // mean, weighted by length
}

// byCrop sorts the words a model read on the strip into the crops they
// stand on, by their middles.
func byCrop(words []ocrWord, ends []int) []cropReading {
	out := make([]cropReading, len(ends))
	weight := make([]float64, len(ends))
	for _, w := range words {
		mid := (w.box.Min.Y + w.box.Max.Y) / 2
		i := sort.SearchInts(ends, mid+1)
		if i == len(ends) {
			continue
		}
		n := float64(len([]rune(w.text)))
		out[i].text += w.text
		out[i].conf += w.conf * n
		weight[i] += n
	}
	for i := range out {
		if weight[i] > 0 {
			out[i].conf /= weight[i]
		}
	}
	return out
}

// pageScript finds the model of the script a page read in English is
// printed in, "" for Latin (or for a page too poorly read to tell). Each
// model reads the strip of words in doubt; it wins a word when it reads
// it in letters of its script with clearly more confidence than English
// does, and the model whose won words add up to the most confidence,
// winning three at least, is the page's.
// share is the part of the page's words of letters it won: over a third,
// the page is the script's; less, the script stands beside Latin (a
// heading, month names in dates), and English leads.
func pageScript(g *image.Gray, dpi float64, words []ocrWord) (model string, share float64, err error) {
	probe := probeWords(words)
	if probe == nil {
		return "", 0, nil
	}
	controls := controlWords(words)
	strip, ends := probeStrip(g, append(probe[:len(probe):len(probe)], controls...))
	read, _, err := recognize(strip, dpi, "eng", psmBlock)
	if err != nil {
		return "", 0, err
	}
	eng := byCrop(read, ends)
	best, bestWins, bestScore := "", 0, 0.0
	han := false  // Japanese's model won two words
	kana := false // and one of them in kana: Chinese prints none
	order, last := probeOrder()
	for _, m := range order {
		if hanModels[m] && !han && m != last {
			continue
		}
		read, _, err := recognize(strip, dpi, m, psmBlock)
		// A model probed is let go at once (2–60 MB each): a worker
		// holds one at a time beside the page's, and the page is read
		// with its winner beside English, another instance.
		dropClients(m)
		if err != nil {
			return "", 0, err
		}
		crops := byCrop(read, ends)
		// The model's confidence in Latin words it reads as its script
		// is what it gives print it cannot read: a word it wins must be
		// read with more.
		least := float64(minScriptConf)
		for _, c := range crops[len(probe):] {
			if inScript(c.text) && !latinLookalike(c.text) {
				least = max(least, c.conf+scriptMargin)
			}
		}
		wins, score := 0, 0.0
		for i, c := range crops[:len(probe)] {
			if c.conf >= eng[i].conf+scriptGain && c.conf >= least && inScript(c.text) {
				wins++
				score += c.conf
				kana = kana || (m == "jpn" && hasKana(c.text))
			}
		}
		han = han || (m == "jpn" && wins >= 2)
		if score > bestScore && wins >= max(minProbeWords, len(probe)/4) {
			best, bestWins, bestScore = m, wins, score
		}
		if 2*wins >= len(probe) && m != "jpn" && !hanModels[m] {
			// Most of the words: no other script will win more (but
			// Japanese and Chinese share their Han characters).
			break
		}
	}
	if best == "" {
		return "", 0, nil
	}
	if kana && hanModels[best] {
		// Chinese models read Japanese's Han characters as confidently
		// as its model does, and its kana as Han at a guess.
		best = "jpn"
	}
	lastScript.Lock()
	lastScript.model = best
	lastScript.Unlock()
	letters := 0
	for _, w := range words {
		if letterWord(w.text) {
			letters++
		}
	}
	return best, float64(bestWins) / float64(letters), nil
}

// inScript reports whether most letters a script's model read are not
// Latin: a model reads Latin print too (its digits and the English words
// its training text held), and its confidence on those says nothing of
// the script.
func inScript(s string) bool {
	latin, other := 0, 0
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r):
		case unicode.Is(unicode.Latin, r):
			latin++
		default:
			other++
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
