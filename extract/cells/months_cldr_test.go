package cells

import (
	"bytes"
	"os"
	"testing"

	"passbook/extract/cells/internal/cldrmonths"
)

// TestCLDRMonthsGenerated holds months_cldr.go to what CLDR (through
// extract/cells/internal/cldrmonths) gives today: a change of the locales
// library or of its language list fails here until `go generate
// ./extract` writes the file again.
func TestCLDRMonthsGenerated(t *testing.T) {
	want, err := cldrmonths.Source()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("months_cldr.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("months_cldr.go is not what CLDR gives: run go generate ./extract/cells")
	}
	if n := len(MonthLanguages()); n != 49 {
		t.Errorf("got %d languages, want 49", n)
	}
}
