package lexicon

import (
	"strings"
	"sync"
	"unicode"
	"unsafe"
)

// phraseIndex finds which phrases of a list a folded line holds by the
// line's own words: each word is looked up among the phrases' first
// words, so a line costs a map lookup a word instead of a substring
// search a phrase. The lexicon's lists hold hundreds of phrases, searched
// on every line several times over; the search was a quarter of a text
// statement's analysis (pprof, a 50-page statement).
type phraseIndex struct {
	// first maps a phrase's first word to the phrase's positions in the
	// list, in the list's order.
	first map[string][]int
}

// phraseIndexKey identifies a phrase list by its backing array and length.
type phraseIndexKey struct {
	data *string
	n    int
}

// phraseIndexEntry keeps the list it indexes alive, so that its address
// is never another list's while the entry exists.
type phraseIndexEntry struct {
	list  []string
	index *phraseIndex
}

// phraseIndexes holds the index of each list searched so far. The lists
// are the lexicon's (Vocab), built once and never changed, so an index is
// built once per list and process.
var phraseIndexes sync.Map // phraseIndexKey → *phraseIndexEntry

// indexOf is the index of phrases, built on its first use.
func indexOf(phrases []string) *phraseIndex {
	key := phraseIndexKey{unsafe.SliceData(phrases), len(phrases)}
	if e, ok := phraseIndexes.Load(key); ok {
		return e.(*phraseIndexEntry).index
	}
	ix := &phraseIndex{first: make(map[string][]int, len(phrases))}
	for k, p := range phrases {
		// A phrase not written as FoldLabel writes words (single spaces,
		// none around it) can never be found in folded text.
		if !normalPhrase(p) {
			continue
		}
		w, _, _ := strings.Cut(p, " ")
		ix.first[w] = append(ix.first[w], k)
	}
	e, _ := phraseIndexes.LoadOrStore(key, &phraseIndexEntry{list: phrases, index: ix})
	return e.(*phraseIndexEntry).index
}

// normalPhrase reports a phrase written as FoldLabel writes words: not
// empty, one space between words and none around them
// (strings.Join(strings.Fields(p), " ") == p, without building either).
func normalPhrase(p string) bool {
	return p != "" && p[0] != ' ' && p[len(p)-1] != ' ' && !strings.Contains(p, "  ") &&
		!strings.ContainsFunc(p, func(r rune) bool { return r != ' ' && unicode.IsSpace(r) })
}

// normalFolded reports folded text as FoldLabel writes it: words with one
// space between them and one around them all.
func normalFolded(f string) bool {
	return len(f) >= 1 && f[0] == ' ' && f[len(f)-1] == ' ' && !strings.Contains(f, "  ")
}

// FirstPhrase is the position in phrases of the first phrase (in the
// list's order) that folded holds as whole words, and where in folded it
// starts; -1, -1 when it holds none. It answers as a scan of the list
// with ContainsPhrase would.
func FirstPhrase(folded string, phrases []string) (k, at int) {
	if !normalFolded(folded) {
		for k, p := range phrases {
			if ContainsPhrase(folded, p) {
				return k, strings.Index(folded, " "+p+" ") + 1
			}
		}
		return -1, -1
	}
	ix := indexOf(phrases)
	best, bestAt := -1, -1
	for s := 1; s < len(folded); {
		e := s + strings.IndexByte(folded[s:], ' ')
		for _, c := range ix.first[folded[s:e]] {
			if best >= 0 && c >= best {
				break
			}
			p := phrases[c]
			if s+len(p) < len(folded) && folded[s+len(p)] == ' ' && folded[s:s+len(p)] == p {
				best, bestAt = c, s
				break
			}
		}
		s = e + 1
	}
	return best, bestAt
}

// foldASCII is FoldLabel of text that is all ASCII, where folding needs no
// Unicode normalisation: letters lowered, digits kept, anything else a
// space between words. ok is false for any other text. Most of what a
// statement prints is ASCII, and lines are folded many times over.
func foldASCII(s string) (folded string, ok bool) {
	b := make([]byte, 0, len(s)+2)
	b = append(b, ' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return "", false
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			b = append(b, c)
		case b[len(b)-1] != ' ':
			b = append(b, ' ')
		}
	}
	switch {
	case len(b) == 1:
		return "  ", true // no words: FoldLabel's " " + "" + " "
	case b[len(b)-1] != ' ':
		b = append(b, ' ')
	}
	return string(b), true
}
