package synth

import (
	"sort"
	"unicode"
)

// scriptTables are the writing systems the world's statements may print,
// by the names Unicode gives them.
var scriptTables = func() []string {
	names := make([]string, 0, len(unicode.Scripts))
	for name := range unicode.Scripts {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}()

// sampleScript names the script a world statement prints its words in:
// the one of most letters other than Latin when it holds at least a
// fifth of them (a Greek statement prints its merchants and IBAN in
// Latin), else Latin. The eval-world tables of images go by it.
func sampleScript(s WorldSample) string {
	count := map[string]int{}
	total := 0
	add := func(text string) {
		for _, r := range text {
			if !unicode.IsLetter(r) {
				continue
			}
			total++
			for _, name := range scriptTables {
				if unicode.Is(unicode.Scripts[name], r) {
					count[name]++
					break
				}
			}
		}
	}
	if s.doc != nil {
		for _, l := range s.doc.lines {
			for _, c := range l.cells {
				add(c.text)
			}
		}
	}
	for _, t := range s.Truth.Transactions {
		add(t.Description)
	}
	best := ""
	for _, name := range scriptTables {
		if name != "Latin" && count[name] > count[best] {
			best = name
		}
	}
	if best == "" || 5*count[best] < total {
		return "Latin"
	}
	return best
}
