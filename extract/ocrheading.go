package extract

import (
	"strings"
	"unicode/utf8"
)

// headingWords are the words of every heading phrase, folded: what a
// heading line is made of.
var headingWords = func() map[string]bool {
	m := map[string]bool{}
	for _, rp := range vocab.headings {
		for _, p := range rp.phrases {
			for _, w := range strings.Fields(p) {
				m[w] = true
			}
		}
	}
	return m
}()

// repairHeadingWords puts back, on a line read by OCR that is mostly column
// headings, the heading words recognition misread by a letter or two
// ("Descricaéo" for "Descrição", "Importancia" is read right beside it).
// Such a word takes the one heading word within reach (see nearHeadingWord).
// Only a line that two or more heading words, read or put back, make
// mostly of headings is touched: a description's words stay as read.
func repairHeadingWords(l *line) {
	if !l.ocr {
		return
	}
	fixed := make([]string, len(l.words))
	known := 0
	for i, w := range l.words {
		f := strings.TrimSpace(foldLabel(w.Text))
		if f == "" || strings.Contains(f, " ") {
			continue
		}
		if headingWords[f] {
			known++
			continue
		}
		if h := nearHeadingWord(f); h != "" {
			fixed[i] = h
			known++
		}
	}
	if known < 2 || 2*known < len(l.words) {
		return
	}
	for i, h := range fixed {
		if h != "" {
			l.words[i].Text = h
		}
	}
}

// nearHeadingWord is the heading word f is a misreading of: the only one
// within one edit of it, or two for words of eight letters or more; "" when
// there is none or more than one. Short words are never guessed: "data" and
// "date" are both headings.
func nearHeadingWord(f string) string {
	n := utf8.RuneCountInString(f)
	if n < 6 {
		return ""
	}
	reach := 1
	if n >= 8 {
		reach = 2
	}
	best, bestD, ties := "", reach+1, 0
	for h := range headingWords {
		if abs(float64(utf8.RuneCountInString(h)-n)) > float64(reach) {
			continue
		}
		d := editDistance(f, h, reach)
		switch {
		case d < bestD:
			best, bestD, ties = h, d, 1
		case d == bestD:
			ties++
		}
	}
	if bestD > reach || ties > 1 {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, or limit+1
// once it is sure to exceed limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c = min(c, prev[j], cur[j-1]) + 1
			} else {
				c = min(c, prev[j]+1, cur[j-1]+1)
			}
			cur[j] = c
			rowMin = min(rowMin, c)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
