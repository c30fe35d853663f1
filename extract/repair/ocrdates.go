package repair

import (
	"math"
	"slices"
	"strings"
	"time"

	"passbook/extract/cells"
	"passbook/extract/source"
)

// dateShape is how a document prints its numeric dates: the digits of each
// of three parts, and the separator ("dd/mm/yyyy" is {2, 2, 4}, '/').
type dateShape struct {
	digits [3]int
	sep    byte
}

func (s dateShape) length() int { return s.digits[0] + s.digits[1] + s.digits[2] + 2 }

// shapeOf is the shape of a word that is a whole three-part numeric date.
func shapeOf(text string) (dateShape, cells.DateToken, bool) {
	d, n, ok := cells.LexNumericDate(text)
	if !ok || n != len(text) || d.N != 3 {
		return dateShape{}, d, false
	}
	parts := strings.Split(text, string(d.Sep))
	if len(parts) != 3 {
		return dateShape{}, d, false
	}
	return dateShape{[3]int{len(parts[0]), len(parts[1]), len(parts[2])}, d.Sep}, d, true
}

// fixShapedDates puts back numeric dates recognition garbled in a column
// of dates: a separator lost or read as a digit or a letter ("1002/2023",
// "o7/1072023", "O8/10V2024" for 10/02/2023, 07/10/2023, 08/10/2024), or
// letters read for digits. A word that is no date as read is rebuilt in
// the shape most of the document's dates share when
//   - it stands where that shape's dates stand on its page (its left edge
//     or its right edge with theirs),
//   - its characters fit the shape (every digit place a digit, once the
//     letters recognition takes for digits are read as them, and a
//     separator place no letter but those), or its digits alone do,
//   - and the date it makes lies among the document's dates, within
//     cells.PeriodSlack of the first and the last of them.
//
// Without such a date the row's date is lost, and the row is read as the
// description of the row before it.
func FixShapedDates(pages []source.Page) {
	// A word that is a whole date, and where it stands.
	type dateWord struct {
		shape  dateShape
		tok    cells.DateToken
		page   int
		x0, x1 float64
	}
	count := map[dateShape]int{}
	var dates []dateWord
	for p, pg := range pages {
		if !pg.OCR {
			continue
		}
		for _, w := range pg.Words {
			if sh, tok, ok := shapeOf(w.Text); ok {
				count[sh]++
				dates = append(dates, dateWord{sh, tok, p, w.X0, w.X1})
			}
		}
	}
	var shape dateShape
	for sh, n := range count {
		if n > count[shape] || n == count[shape] && sh.length() > shape.length() {
			shape = sh
		}
	}
	if count[shape] < 3 {
		return
	}
	// The orders the shape's dates allow: a first part over 12 is a day.
	dmy, mdy := true, true
	if shape.digits[0] == 4 {
		mdy = false
	}
	for _, d := range dates {
		if d.shape == shape && !d.tok.YearFirst {
			dmy = dmy && d.tok.Parts[1] <= 12
			mdy = mdy && d.tok.Parts[0] <= 12
		}
	}
	var places []dateWord
	first := map[bool]time.Time{}
	last := map[bool]time.Time{}
	for _, d := range dates {
		if d.shape != shape {
			continue
		}
		places = append(places, d)
		for _, dayFirst := range []bool{true, false} {
			if t, ok := shapedTime(d.tok, dayFirst); ok {
				if f, ok := first[dayFirst]; !ok || t.Before(f) {
					first[dayFirst] = t
				}
				if l, ok := last[dayFirst]; !ok || t.After(l) {
					last[dayFirst] = t
				}
			}
		}
	}
	among := func(tok cells.DateToken) bool {
		for _, dayFirst := range []bool{true, false} {
			if dayFirst && !dmy || !dayFirst && !mdy {
				continue
			}
			t, ok := shapedTime(tok, dayFirst)
			if !ok || t.Before(first[dayFirst].Add(-cells.PeriodSlack)) || t.After(last[dayFirst].Add(cells.PeriodSlack)) {
				return false
			}
		}
		return dmy || mdy
	}
	const tolerance = 6.0 // points
	for p := range pages {
		pg := &pages[p]
		if !pg.OCR {
			continue
		}
		for i, w := range pg.Words {
			if _, _, ok := cells.LexDate(w.Text); ok {
				continue
			}
			aligned := slices.ContainsFunc(places, func(at dateWord) bool {
				return at.page == p && (math.Abs(at.x0-w.X0) <= tolerance || math.Abs(at.x1-w.X1) <= tolerance)
			})
			if !aligned {
				continue
			}
			text, ok := reshapeDate(w.Text, shape)
			if !ok {
				continue
			}
			if _, tok, ok := shapeOf(text); ok && among(tok) {
				pg.Words[i].Text = text
			}
		}
	}
}

// shapedTime is the date tok names, its first two parts read as day and
// month when dayFirst (a two-digit year is this century's).
func shapedTime(tok cells.DateToken, dayFirst bool) (time.Time, bool) {
	y, a, b := tok.Year, tok.Parts[0], tok.Parts[1]
	if tok.YearFirst {
		a, b = tok.Parts[2], tok.Parts[1]
		dayFirst = true
	}
	if tok.YearDigits == 2 {
		y += 2000
	}
	day, month := a, b
	if !dayFirst {
		day, month = b, a
	}
	t := time.Date(y, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	return t, month >= 1 && month <= 12 && t.Day() == day
}

// reshapeDate rebuilds s in shape: character by character when s is as
// long as the shape, or from its digits alone when it has the shape's
// digits and nothing else but separators.
func reshapeDate(s string, shape dateShape) (string, bool) {
	read := digitLike.Replace(s)
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	separatorLike := func(c byte) bool { return strings.IndexByte(dateSeparatorLike, c) >= 0 }
	var digits []byte
	if len(read) == shape.length() {
		at := 0
		for k, n := range shape.digits {
			if k > 0 {
				if c := read[at]; !isDigit(c) && !separatorLike(c) {
					return "", false
				}
				at++
			}
			for range n {
				if !isDigit(read[at]) {
					return "", false
				}
				digits = append(digits, read[at])
				at++
			}
		}
	} else {
		for i := 0; i < len(read); i++ {
			switch c := read[i]; {
			case isDigit(c):
				digits = append(digits, c)
			case !separatorLike(c):
				return "", false
			}
		}
		if len(digits) != shape.digits[0]+shape.digits[1]+shape.digits[2] {
			return "", false
		}
	}
	var b strings.Builder
	at := 0
	for k, n := range shape.digits {
		if k > 0 {
			b.WriteByte(shape.sep)
		}
		b.Write(digits[at : at+n])
		at += n
	}
	return b.String(), true
}

// dateSeparatorLike are what recognition reads a date's separator as.
const dateSeparatorLike = "/.-:;,|\\V'"
