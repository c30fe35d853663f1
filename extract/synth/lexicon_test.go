package synth

import (
	"reflect"
	"testing"

	"github.com/go-pdf/fpdf"
)

// TestLexicons checks each language has words for every heading and label,
// and that all of them can be drawn with the core fonts (Windows-1252).
func TestLexicons(t *testing.T) {
	tr := fpdf.New("P", "mm", "A4", "").UnicodeTranslatorFromDescriptor("")
	// The translator writes "." for a character it cannot map.
	drawable := func(s string) bool {
		for _, r := range s {
			if r != '.' && tr(string(r)) == "." {
				return false
			}
		}
		return true
	}
	for _, code := range langs {
		lx := lexicons[code]
		if lx == nil || lx.code != code {
			t.Fatalf("%s: no lexicon", code)
		}
		t.Run(code, func(t *testing.T) {
			v := reflect.ValueOf(*lx)
			for i := range v.NumField() {
				f, name := v.Field(i), v.Type().Field(i).Name
				var words []string
				switch f.Kind() {
				case reflect.Slice:
					if f.Len() == 0 {
						t.Errorf("%s is empty", name)
					}
					for j := range f.Len() {
						e := f.Index(j)
						if e.Kind() == reflect.String {
							words = append(words, e.String())
							continue
						}
						for k := range e.Len() {
							words = append(words, e.Index(k).String())
						}
					}
				case reflect.Array:
					for j := range f.Len() {
						words = append(words, f.Index(j).String())
					}
				}
				for _, w := range words {
					if w == "" {
						t.Errorf("%s holds an empty word", name)
					}
					if !drawable(w) {
						t.Errorf("%s: %q cannot be drawn with the core fonts", name, w)
					}
				}
			}
		})
	}
	for _, list := range [][]string{merchants, debitKinds, creditKinds, trickyWords, detailWords, banks, streets, cities, holders, watermarks} {
		for _, w := range list {
			if !drawable(w) {
				t.Errorf("%q cannot be drawn with the core fonts", w)
			}
		}
	}
}
