package ocr

import "image"

// Turning a poorly read page upright.
//
// A page that reads poorly as it stands may be upside down, which the
// ink alone does not tell, or turned a quarter, which the ink misjudges
// on a photo in perspective. Each turn is first tried on a band of the
// page, the one that holds most of the first reading's words: a quarter
// of the page's height costs a quarter of a reading, where reading the
// whole page turned three ways had cost three (a Greek page, poorly read
// in English, took four readings before its script was even probed). Only
// the turn that reads the band best is read whole, and kept when the
// whole page reads better so.

// trialBand is the share of the page's height the turns are tried on.
const trialBand = 0.25

// uprightGain is how much more confidently (0–100) a turned band must
// read than the band as it stands for the turn to be read whole.
const uprightGain = 10

// turnUpright returns the page turned the way it reads best, with its
// reading and mean confidence; g, words and conf when no turn reads
// better.
func turnUpright(g *image.Gray, dpi float64, words []ocrWord, conf float64) (*image.Gray, []ocrWord, float64, error) {
	band := wordsBand(g, words)
	base := confIn(words, band)
	crop := cropGray(g, band)
	bestTurns, bestConf := 0, base
	for _, turns := range []int{2, 1, 3} {
		t := rotateQuarter(crop, turns)
		if turns != 2 {
			t = deskew(t, dpi)
		}
		_, c, err := recognize(t, dpi, "eng", psmSparse)
		if err != nil {
			return nil, nil, 0, err
		}
		if c > bestConf {
			bestTurns, bestConf = turns, c
		}
		if bestConf >= uprightConf && bestTurns != 0 {
			break
		}
	}
	if bestTurns == 0 || bestConf < base+uprightGain {
		return g, words, conf, nil
	}
	g2 := rotateQuarter(g, bestTurns)
	if bestTurns != 2 {
		g2 = deskew(g2, dpi)
	}
	words2, conf2, err := recognize(g2, dpi, "eng", psmSparse)
	if err != nil {
		return nil, nil, 0, err
	}
	if conf2 > conf {
		return g2, words2, conf2, nil
	}
	return g, words, conf, nil
}

// wordsBand is the full-width band of trialBand of g's height that holds
// the most letters of words (whatever they read as): where the page's
// print is.
func wordsBand(g *image.Gray, words []ocrWord) image.Rectangle {
	h := g.Rect.Dy()
	bh := max(1, int(trialBand*float64(h)))
	if bh >= h {
		return g.Rect
	}
	// Letters per row of pixels, then the band's running sum.
	rows := make([]int, h+1)
	for _, w := range words {
		n := len([]rune(w.text))
		for y := max(w.box.Min.Y-g.Rect.Min.Y, 0); y < min(w.box.Max.Y-g.Rect.Min.Y, h); y++ {
			rows[y] += n
		}
	}
	best, bestSum, sum := 0, -1, 0
	for y := 0; y < h; y++ {
		sum += rows[y]
		if y >= bh {
			sum -= rows[y-bh]
		}
		if y >= bh-1 && sum > bestSum {
			best, bestSum = y-bh+1, sum
		}
	}
	return image.Rect(g.Rect.Min.X, g.Rect.Min.Y+best, g.Rect.Max.X, g.Rect.Min.Y+best+bh)
}

// confIn is the mean confidence, weighted by length, of the words whose
// middle lies in r.
func confIn(words []ocrWord, r image.Rectangle) float64 {
	var sum, weight float64
	for _, w := range words {
		mid := image.Pt((w.box.Min.X+w.box.Max.X)/2, (w.box.Min.Y+w.box.Max.Y)/2)
		if !mid.In(r) {
			continue
		}
		n := float64(len([]rune(w.text)))
		sum += w.conf * n
		weight += n
	}
	if weight == 0 {
		return 0
	}
	return sum / weight
}
