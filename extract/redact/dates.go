package redact

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"

	"passbook/extract/cells"
)

// A copy may move every date by a whole number of weeks (Options.
// ShiftWeeks), so that the days of the client's payments are not the
// copy's: the weekdays, and so the layout's weekends, stay. Dates are
// redrawn in their own style, each part as wide as printed; a date
// printed with a month's name has that name written for the new month
// (dates_named.go).

// dateShift is a plan's moving of dates: by days, in a document whose
// numeric dates read in order.
type dateShift struct {
	days   int
	order  cells.DateOrder
	period [2]*time.Time
	// monthWords are the words of the document's dates that name their
	// month; langs, the languages their names are looked for in.
	monthWords []string
	langs      []int
}

// shiftedText is a date token's text moved by the shift, or why not.
func (ds *dateShift) shiftedText(d *cells.DateToken, text string) (string, error) {
	t, ok := d.Resolve(ds.order, ds.period[0], ds.period[1])
	if !ok {
		return "", fmt.Errorf("the date %q cannot be read to be moved", text)
	}
	t = t.AddDate(0, 0, ds.days)
	day, _, _, yearDigits := d.DayMonth(ds.order)
	if day == 0 {
		return "", fmt.Errorf("the date %q cannot be read to be moved", text)
	}
	// The parts in printed order, each the new day, month or year.
	var parts [3]int
	yearAt := 2
	switch {
	case d.YearFirst || ds.order == cells.OrderYMD && d.N == 3:
		parts, yearAt = [3]int{t.Year(), int(t.Month()), t.Day()}, 0
	case ds.order == cells.OrderMDY || ds.order == cells.OrderYMD && d.N == 2:
		parts = [3]int{int(t.Month()), t.Day(), t.Year()}
	default:
		parts = [3]int{t.Day(), int(t.Month()), t.Year()}
	}
	k := 0
	out := digitRuns().ReplaceAllStringFunc(text, func(run string) string {
		if k >= d.N {
			return run
		}
		v := parts[k]
		if k == yearAt && yearDigits == 2 {
			v %= 100
		}
		k++
		s := strconv.Itoa(v)
		for len(s) < len(run) {
			s = "0" + s
		}
		return s
	})
	return out, nil
}

// digitRuns finds a date's numeric parts.
var digitRuns = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[0-9]+`) })
