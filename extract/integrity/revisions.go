package integrity

import (
	"fmt"
	"sort"
	"strings"

	"passbook/extract/ledger"
)

// word is a run of glyphs on one baseline with no gap between them.
type word struct {
	text string
	box  [4]float64
}

// words groups a page's glyphs into words, in drawing order.
func words(gs []glyph) []word {
	var out []word
	var cur []glyph
	flush := func() {
		if t := glyphText(cur); t != "" {
			b := cur[0].box
			for _, g := range cur[1:] {
				b = union(b, g.box)
			}
			out = append(out, word{text: t, box: b})
		}
		cur = cur[:0]
	}
	for _, g := range gs {
		if strings.TrimSpace(g.text) == "" {
			flush()
			continue
		}
		if n := len(cur); n > 0 {
			p := cur[n-1]
			h := p.box[3] - p.box[1]
			if g.box[0]-p.box[2] > 0.25*h || g.box[0] < p.box[0] || abs(g.box[3]-p.box[3]) > 0.3*h {
				flush()
			}
		}
		cur = append(cur, g)
	}
	flush()
	return out
}

func union(a, b [4]float64) [4]float64 {
	return [4]float64{min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// revisions compares each revision's pages with the one before: text a
// later save changed is the strongest sign there is, and the earlier text
// is the evidence.
func (r *report) revisions(in Input, revs []revision, last *pdfFile, lastContent []pageContent) {
	if len(revs) <= 1 {
		return
	}
	r.add(CodeIncremental, ledger.SeverityInfo, 0, nil, "saved %d time%s after it was made, each save appended to the file (banks and signers also save this way)", len(revs)-1, plural(len(revs)-1))
	type state struct {
		pages [][]word
		end   int
	}
	read := func(k int) *state {
		if k == len(revs)-1 {
			s := &state{end: revs[k].end}
			for _, c := range lastContent {
				s.pages = append(s.pages, words(c.glyphs))
			}
			return s
		}
		f, err := readPDF(in.Data[:revs[k].end], in.Password, r.whole)
		if err != nil || len(f.pages) == 0 {
			return nil
		}
		s := &state{end: revs[k].end}
		for _, p := range f.pages {
			s.pages = append(s.pages, words(f.readPage(p).glyphs))
		}
		return s
	}
	sigs := last.signatures()
	prev := read(0)
	for k := 1; k < len(revs); k++ {
		cur := read(k)
		if cur == nil {
			continue
		}
		if prev == nil {
			prev = cur
			continue
		}
		signed := false
		for _, e := range sigs {
			if e <= prev.end+2 && e > 0 {
				signed = true
			}
		}
		for p := range cur.pages {
			if p >= len(prev.pages) {
				if len(cur.pages[p]) > 0 {
					b := bounds(cur.pages[p])
					r.add(CodeRevisionTextAdded, ledger.SeverityMedium, p+1, &b, "page %d was added by a later save (revision %d of %d)", p+1, k+1, len(revs))
				}
				continue
			}
			removed, added := diffWords(prev.pages[p], cur.pages[p])
			if len(removed) == 0 && len(added) == 0 {
				continue
			}
			var b [4]float64
			if len(added) > 0 {
				b = bounds(added)
			} else {
				b = bounds(removed)
			}
			code, sev := CodeRevisionTextChanged, ledger.SeverityHigh
			if signed {
				code = CodeSignedThenChanged
			} else if len(removed) == 0 {
				code, sev = CodeRevisionTextAdded, ledger.SeverityMedium
			}
			ev := fmt.Sprintf("a later save (revision %d of %d) changed the page's text: earlier %s, now %s", k+1, len(revs), quoteWords(removed), quoteWords(added))
			if signed {
				ev = "changed after the document was signed: earlier " + quoteWords(removed) + ", now " + quoteWords(added)
			}
			r.add(code, sev, p+1, &b, "%s", ev)
		}
		prev = cur
	}
}

// diffWords is what b lacks of a's words and what it has beyond them,
// counted as multisets of text.
func diffWords(a, b []word) (removed, added []word) {
	return beyond(b, a), beyond(a, b)
}

// beyond is the words of b that a does not hold, counted as multisets.
func beyond(a, b []word) []word {
	count := map[string]int{}
	for _, w := range a {
		count[w.text]++
	}
	var out []word
	for _, w := range b {
		if count[w.text] > 0 {
			count[w.text]--
			continue
		}
		out = append(out, w)
	}
	return out
}

func bounds(ws []word) [4]float64 {
	b := ws[0].box
	for _, w := range ws[1:] {
		b = union(b, w.box)
	}
	return b
}

func quoteWords(ws []word) string {
	if len(ws) == 0 {
		return "nothing"
	}
	sort.SliceStable(ws, func(i, j int) bool {
		if abs(ws[i].box[1]-ws[j].box[1]) > 2 {
			return ws[i].box[1] < ws[j].box[1]
		}
		return ws[i].box[0] < ws[j].box[0]
	})
	var t []string
	for i, w := range ws {
		if i == 8 {
			t = append(t, fmt.Sprintf("and %d more", len(ws)-8))
			break
		}
		t = append(t, w.text)
	}
	return fmt.Sprintf("%q", strings.Join(t, " "))
}
