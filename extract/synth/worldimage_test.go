package synth

import (
	"regexp"
	"testing"
)

// TestWorldImageShortDates scans statements whose rows print their date
// as day, month and a two-digit year with dots ("04.12.25"), one on a
// page of decimal commas and one of decimal points, and reads them back
// through recognition: every row is found, on its date. Recognition's
// repair of amounts once took such a date for an amount and rewrote it
// in the page's marks ("4.12,25", "01,11.22"), and the rows were lost.
func TestWorldImageShortDates(t *testing.T) {
	short := regexp.MustCompile(`^\d{1,2}\.\d{1,2}\.\d{2}$`)
	// Odd seeds are scanned (convertWorld); one statement a decimal mark.
	done := map[string]bool{}
	for seed := int64(5001); seed < 5600 && len(done) < 2; seed += 2 {
		s, err := GenerateWorld(seed, WorldOptions{Family: "table", Short: true})
		if err != nil {
			t.Fatal(err)
		}
		if done[s.Locale.Decimal] || s.Pages != 1 || len(s.Printed.Dates) == 0 || !short.MatchString(s.Printed.Dates[0]) {
			continue
		}
		done[s.Locale.Decimal] = true
		r := convertWorld(s, true)
		if r.err != nil {
			t.Fatalf("%s: %v", s, r.err)
		}
		if r.found != r.truth {
			t.Errorf("%s (%s): %d rows read, want %d", s, r.kind, r.found, r.truth)
			continue
		}
		for i, tx := range s.Truth.Transactions {
			if r.got[i].Date != tx.Date {
				t.Errorf("%s (%s): row %d dated %s, want %s", s, r.kind, i, r.got[i].Date, tx.Date)
			}
		}
	}
	if len(done) < 2 {
		t.Fatalf("found statements of two-digit-year dates for %d decimal mark(s), want 2", len(done))
	}
}
