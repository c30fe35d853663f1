package redact_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"passbook/extract/ledger"
	"passbook/extract/redact"
)

// namedDateStatement prints a one-page statement whose dates name their
// month, each as date prints it; embedded draws it with a subset of
// DejaVu Sans, holding only the characters printed.
func namedDateStatement(t *testing.T, date func(time.Time) string, embedded bool) []byte {
	t.Helper()
	day := func(d int) string { return date(time.Date(2025, time.March, d, 0, 0, 0, 0, time.UTC)) }
	return table{embedded: embedded, period: "Statement period: " + day(1) + " to " + day(31), opening: "1,204.18", closing: "2,769.35",
		rows: []tableRow{
			{day(3), "Card payment Hollowell Grocers", "45.20", "", "1,158.98"},
			{day(5), "Salary Marchbanks Engineering", "", "2,310.00", "3,468.98"},
			{day(14), "Transfer to Q Marchbanks", "700.00", "", "2,768.98"},
			{day(28), "Interest", "", "0.37", "2,769.35"},
		}}.print(t)
}

// TestCopyShiftsNamedDates: with ShiftWeeks, dates that name their
// month move as numeric ones do, the month's name written for the new
// month in the language, form and case printed ("4 March 2025",
// "Mar 4, 2025", "4 mars 2025", "MAR 04 2025"); the copy reads every
// row on its day moved and proves as the original does. A font that
// lacks a letter of the new month's name is refused, saying which.
func TestCopyShiftsNamedDates(t *testing.T) {
	french := []string{"", "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"}
	for _, tc := range []struct {
		name   string
		date   func(time.Time) string
		weeks  int
		period string // the period line's first date, moved
	}{
		{"day month year", func(d time.Time) string { return d.Format("2 January 2006") }, -3, "8 February 2025"},
		{"month day, year", func(d time.Time) string { return d.Format("Jan 2, 2006") }, 5, "Apr 5, 2025"},
		{"upper case", func(d time.Time) string { return strings.ToUpper(d.Format("Jan 02 2006")) }, -1, "FEB 22 2025"},
		{"french", func(d time.Time) string { return d.Format("2 ") + french[d.Month()] + d.Format(" 2006") }, 6, "12 avril 2025"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := namedDateStatement(t, tc.date, false)
			o, err := read(doc, "")
			if err != nil {
				t.Fatal(err)
			}
			if n, st := len(o.Result.Transactions), o.Result.Statement.Reconciliation.Status; n != 4 || st != ledger.ReconcileOK {
				t.Fatalf("the original reads %d rows, %q; want 4, ok: the test would prove nothing", n, st)
			}
			out, side, err := redact.Copy(doc, read, redact.Options{Seed: 3, ShiftWeeks: tc.weeks})
			if err != nil {
				t.Fatal(err)
			}
			if side.Reconciliation != ledger.ReconcileOK {
				t.Errorf("sidecar %q, want ok", side.Reconciliation)
			}
			c, err := read(out, "")
			if err != nil {
				t.Fatal(err)
			}
			for i, ot := range o.Result.Transactions {
				if want := ot.Date.AddDate(0, 0, 7*tc.weeks); !c.Result.Transactions[i].Date.Equal(want) {
					t.Errorf("row %d: %s, want %s", i, c.Result.Transactions[i].Date.Format("2006-01-02"), want.Format("2006-01-02"))
				}
				if a, b := amount(ot), amount(c.Result.Transactions[i]); a.Equal(b) || b.LessThan(a.Mul(decimal.RequireFromString("1.05"))) {
					t.Errorf("row %d: amount %s, original %s: not scaled", i, b, a)
				}
			}
			if text := words(c); !strings.Contains(strings.ReplaceAll(text, "\n", " "), tc.period) {
				t.Errorf("the period line does not read %q: %s", tc.period, strings.ReplaceAll(text, "\n", " "))
			}
		})
	}
	t.Run("font lacks the letters", func(t *testing.T) {
		// A subset font that prints no "F": March moved back three weeks
		// is in February.
		doc := namedDateStatement(t, func(d time.Time) string { return d.Format("2 January 2006") }, true)
		_, _, err := redact.Copy(doc, read, redact.Options{Seed: 3, ShiftWeeks: -3})
		if !errors.Is(err, redact.ErrRefused) || !strings.Contains(err.Error(), "has no 'F' to draw the moved date") {
			t.Fatalf("got %v, want a refusal naming the letter the font lacks", err)
		}
		if _, _, err := redact.Copy(doc, read, redact.Options{Seed: 3}); err != nil {
			t.Fatalf("without moving the dates: %v", err)
		}
	})
}
