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

// sampleScripts names the scripts other than Latin a world statement
// prints at least minScriptLetters letters of (its words, or only its
// month names: a statement of Latin words in Kazakh dates prints
// Cyrillic), or Latin when it prints none. The eval-world tables of
// images count a statement under each.
func sampleScripts(s WorldSample) []string {
	count := map[string]int{}
	add := func(text string) {
		for _, r := range text {
			if !unicode.IsLetter(r) || unicode.Is(unicode.Latin, r) {
				continue
			}
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
	var out []string
	for _, name := range scriptTables {
		if count[name] >= minScriptLetters {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		return []string{"Latin"}
	}
	return out
}

// minScriptLetters is how many letters of a script make a statement one
// that prints it.
const minScriptLetters = 3
