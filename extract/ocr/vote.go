package ocr

import (
	"image"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Two readings of one page, and why both.
//
// The sparse mode (11) finds every word wherever it stands: lone column
// headings, a figure far from the rest of its row. The analysis is built on
// its words and their boxes. But it reads each word on its own, and on
// some fonts (monospace ledgers, tight scans) it cuts a figure where its
// glyphs stand apart: "351.20" comes out as "351" and "20", "10,392.27" as
// "10," and "392.27", a dropped decimal point or a group lost. The block
// mode (6) reads the page as lines of text, so it sees the whole figure,
// but it reads the page as one uniform block: a header of fields set side
// by side in several sizes comes out garbled or run together ("Relevé ...
// 1 avr. 2024 au 30 avr. 2024" as "Aes a ees anne 2024"). Read in block
// mode alone, two of ten corpus pages lost their statement period (one
// garbled as above; on the other, a photo, the period's words came out
// but not as the analysis finds a period), and with it the year of dates
// printed without one and the order of numeric dates: every row wrong
// while each figure is right. Leaving the word boxes' heights as
// Tesseract gives them (lineHeights) changed nothing. So the header and
// its fields come from the sparse mode.
//
// So a page is read in both, and the sparse reading is kept with its
// figures taken from the block reading where that printed a whole,
// well-formed figure in the same place and the sparse reading did not:
// the words and boxes the analysis relies on stay the sparse mode's, and
// which mode produced a figure no longer decides whether it is whole.

// wholeFigure matches a figure as a statement prints it: an amount with
// its two decimals (grouped or not, either decimal mark, a sign, bracket,
// currency mark or CR/DR around it) or a numeric date.
var wholeFigure = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[-+(]?[$€£]?[-+]?[0-9]{1,3}(?:[.,' ][0-9]{3})*[.,][0-9]{2}[-+)]?(?:CR|DR|Cr|Dr)?|[-+(]?[$€£]?[0-9]+[.,][0-9]{2}[-)]?(?:CR|DR|Cr|Dr)?|[0-9]{1,2}[/.-][0-9]{1,2}(?:[/.-](?:[0-9]{2}|[0-9]{4}))?|[0-9]{4}-[0-9]{2}-[0-9]{2})$`)
})

// isWholeFigure reports a word that is a whole amount or numeric date.
func isWholeFigure(s string) bool { return wholeFigure().MatchString(s) }

// figureLike reports a word made of what figures are made of: digits and
// their marks, at least one digit. Pieces of a cut figure are figureLike.
func figureLike(s string) bool {
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune(".,;:'/-+()$€£~\"", r):
		default:
			return false
		}
	}
	return digits > 0
}

// garbledPiece reports a piece of a figure read with letters for some of
// its digits: a mark or digit, and otherwise only letters that look like
// digits ("-ol" for ".51", "1O7.45"). A word of letters alone ("SOS") is
// a word.
func garbledPiece(s string) bool {
	return strings.ContainsAny(s, "0123456789.,-") && figureLike(digitLike.Replace(s))
}

// covers reports whether figure box f covers most of word box w: most of
// w's width lies within f, and their heights overlap by most of the
// smaller.
func covers(f, w image.Rectangle) bool {
	in := f.Intersect(w)
	if in.Empty() {
		return false
	}
	return 2*in.Dx() > w.Dx() && 2*in.Dy() > min(f.Dy(), w.Dy())
}

// touches reports whether two boxes share any area.
func touches(a, b image.Rectangle) bool { return !a.Intersect(b).Empty() }

// mergeFigures returns the sparse reading with its figures corrected from
// the block reading of the same pixels. For each whole figure of block:
//   - where sparse read the same text, nothing changes;
//   - where sparse read it cut into pieces, or garbled into digits and
//     marks that are not a whole figure ("351" "20", "10," "392.27",
//     "1O7.45"), the pieces give way to the block mode's figure;
//   - where sparse read nothing at all, the figure is added;
//   - where sparse read another whole figure, or a word with letters,
//     sparse's word stays: the two modes disagree, and neither is known
//     to be right.
//
// Where the two modes read other digits or sign (figureKey), the figure
// kept carries the other reading in alt: sparse's whole figure where block
// read another, block's figure where sparse's pieces hold other digits. A
// third reading settles them (reread.go).
func mergeFigures(sparse, block []ocrWord) []ocrWord {
	drop := make([]bool, len(sparse))
	// in[i] is the block mode's figure that takes sparse word i's place;
	// alt[i] what the other mode read there when its digits differ.
	in := map[int]ocrWord{}
	alt := map[int]ocrWord{}
	var added []ocrWord
	nextLine := 0
	for _, w := range sparse {
		nextLine = max(nextLine, w.line[0]+1)
	}
	for _, b := range block {
		if !isWholeFigure(b.text) {
			continue
		}
		var cover []int
		clash := false
		for i, w := range sparse {
			if drop[i] || !touches(b.box, w.box) {
				continue
			}
			if !covers(b.box, w.box) {
				// A word that only grazes the figure: a neighbour, unless
				// it is a piece of it that runs on beyond (a figure the
				// block mode cut short).
				if figureLike(w.text) && covers(w.box, b.box) {
					clash = true
				}
				continue
			}
			if !figureLike(w.text) && !garbledPiece(w.text) {
				clash = true // letters where the block mode saw a figure
				continue
			}
			cover = append(cover, i)
		}
		if clash {
			continue
		}
		switch {
		case len(cover) == 0:
			b.line = [3]int{nextLine, 0, 0} // a line of its own for lineHeights
			nextLine++
			added = append(added, b)
			continue
		case len(cover) == 1 && isWholeFigure(sparse[cover[0]].text):
			// The same figure, or a disagreement: sparse stays.
			if figureKey(b.text) != figureKey(sparse[cover[0]].text) {
				alt[cover[0]] = b
			}
			continue
		}
		b.line = sparse[cover[0]].line
		// The pieces as they stand on the page, left to right (the
		// sparse mode may list them in any order).
		slices.SortFunc(cover, func(i, j int) int { return sparse[i].box.Min.X - sparse[j].box.Min.X })
		var pieces ocrWord
		for n, i := range cover {
			drop[i] = true
			pieces.text += sparse[i].text
			if n == 0 {
				pieces.box = sparse[i].box
			}
			pieces.box = pieces.box.Union(sparse[i].box)
		}
		in[cover[0]] = b
		if figureKey(pieces.text) != figureKey(b.text) {
			alt[cover[0]] = pieces
		}
	}
	if len(added) == 0 && len(in) == 0 && len(alt) == 0 {
		return sparse
	}
	out := make([]ocrWord, 0, len(sparse)+len(added))
	for i, w := range sparse {
		b, ok := in[i]
		switch {
		case ok:
			w = b
		case drop[i]:
			continue
		}
		if a, ok := alt[i]; ok {
			w.alt, w.altBox = a.text, a.box
		}
		out = append(out, w)
	}
	return append(out, added...)
}

// cutFigure matches a word that is part of a figure the sparse mode cut
// or garbled: digits with a mark that are not a whole figure ("10,",
// "351.", "195:92;"); cutWhole and cutCents a whole number and the two
// digits of a figure whose decimal point was lost ("351" "20").
var (
	cutWhole = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[-+(]?[0-9]{1,3}(?:[.,' ][0-9]{3})*[.,]?$|^[-+(]?[0-9]{1,7}$`)
	})
	cutCents = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[.,]?[0-9]{2}(?:[-)]|CR|DR|Cr|Dr)?$`) })
)

// suspectFigures counts the sparse reading's words that look like pieces
// of a cut or garbled figure: a word of digits and decimal marks that is
// not a whole figure, or a whole number followed on its line, within a
// word space, by two digits. A page with none has nothing the block mode
// could mend, and is read once.
func suspectFigures(words []ocrWord) int {
	n := 0
	for _, w := range words {
		if figureLike(w.text) && !isWholeFigure(w.text) && strings.ContainsAny(w.text, ".,;:") && !cutWhole().MatchString(w.text) {
			n++ // "195:92;", "1.234.5"
			continue
		}
		if !cutWhole().MatchString(w.text) {
			continue
		}
		if strings.ContainsAny(w.text[len(w.text)-1:], ".,") {
			n++ // "10,", "351."
			continue
		}
		// The sparse mode may put the two halves on lines or blocks of
		// their own: look for the cents by place, not by line number.
		h := w.box.Dy()
		for _, next := range words {
			gap := next.box.Min.X - w.box.Max.X
			dy := next.box.Max.Y - w.box.Max.Y
			if gap >= 0 && gap < h*13/10 && 3*max(dy, -dy) < h && cutCents().MatchString(next.text) {
				n++ // "351" "20"
				break
			}
		}
	}
	return n
}

// cutThousands matches the piece of a figure cut after its thousands
// mark ("6,", "12."), and cutRest the rest of it: three digits, the
// decimals and any sign ("368.06-").
var (
	cutThousands = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+(]?[0-9]{1,3}[.,]$`) })
	cutRest      = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[0-9]{3}(?:[.,' ][0-9]{3})*[.,][0-9]{2}(?:[-)]|CR|DR|Cr|Dr)?$`)
	})
)

// joinCutThousands joins a figure both reading modes cut after its
// thousands mark ("6," "368.06-" for "6,368.06-"): the piece that ends
// with the mark and, on its line within a word space to its right, the
// three digits and decimals that go on from it. The mark must differ from
// the rest's decimal mark, as a thousands mark does.
func joinCutThousands(words []ocrWord) []ocrWord {
	drop := make([]bool, len(words))
	for i, w := range words {
		if drop[i] || !cutThousands().MatchString(w.text) {
			continue
		}
		h := w.box.Dy()
		for j, next := range words {
			gap := next.box.Min.X - w.box.Max.X
			dy := next.box.Max.Y - w.box.Max.Y
			if j == i || drop[j] || gap < 0 || gap >= h || 3*max(dy, -dy) >= h || !cutRest().MatchString(next.text) {
				continue
			}
			mark := w.text[len(w.text)-1:]
			d := strings.LastIndexAny(next.text, ".,")
			dec := next.text[d : d+1]
			if mark == dec {
				continue // "6." "368.06": a decimal point, not a thousands mark
			}
			words[i].text += next.text
			words[i].box = w.box.Union(next.box)
			words[i].conf = min(w.conf, next.conf)
			drop[j] = true
			break
		}
	}
	out := words[:0]
	for i, w := range words {
		if !drop[i] {
			out = append(out, w)
		}
	}
	return out
}
