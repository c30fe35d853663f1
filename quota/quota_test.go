package quota

import (
	"errors"
	"testing"
	"time"
)

func TestWindow(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		plan       Plan
		at         time.Time
		loc        *time.Location
		start, end time.Time
	}{
		{"free day just before midnight", Free, time.Date(2024, 3, 9, 23, 59, 59, 0, time.UTC), nil,
			time.Date(2024, 3, 9, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)},
		{"free day at midnight", Free, time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC), time.UTC,
			time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 11, 0, 0, 0, 0, time.UTC)},
		{"month of February in a leap year", Professional, time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), nil,
			time.Date(2024, 2, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"December rolls into January", Business, time.Date(2024, 12, 31, 23, 0, 0, 0, time.UTC), nil,
			time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"another time zone's day", Free, time.Date(2024, 3, 9, 23, 30, 0, 0, time.UTC), berlin,
			time.Date(2024, 3, 10, 0, 0, 0, 0, berlin), time.Date(2024, 3, 11, 0, 0, 0, 0, berlin)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, end := tt.plan.Window(tt.at, tt.loc)
			if !start.Equal(tt.start) || !end.Equal(tt.end) {
				t.Errorf("Window = %v..%v, want %v..%v", start, end, tt.start, tt.end)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name                       string
		pages, used, limit, credit int
		fromQuota, fromCredits     int
		err                        error
	}{
		{"inside quota", 2, 1, 5, 0, 2, 0, nil},
		{"exactly the rest", 4, 1, 5, 0, 4, 0, nil},
		{"one over with no credits", 5, 1, 5, 0, 0, 0, ErrExceeded},
		{"quota used, credits pay", 3, 5, 5, 10, 0, 3, nil},
		{"part quota part credits", 4, 3, 5, 2, 2, 2, nil},
		{"credits short", 4, 3, 5, 1, 0, 0, ErrExceeded},
		{"used above limit after a downgrade", 1, 50, 5, 0, 0, 0, ErrExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, c, err := Split(tt.pages, tt.used, tt.limit, tt.credit)
			if !errors.Is(err, tt.err) || q != tt.fromQuota || c != tt.fromCredits {
				t.Errorf("Split = %d, %d, %v; want %d, %d, %v", q, c, err, tt.fromQuota, tt.fromCredits, tt.err)
			}
		})
	}
}

func TestPlans(t *testing.T) {
	for _, tt := range []struct {
		in     string
		limit  int
		period Period
	}{{"Free", 5, Day}, {"professional", 400, Month}, {"BUSINESS", 1000, Month}, {"enterprise", 2000, Month}, {"Admin", NoLimit, Month}} {
		p, err := ParsePlan(tt.in)
		if err != nil || p.Limit() != tt.limit || p.Period() != tt.period {
			t.Errorf("ParsePlan(%q) = %v (%d/%s), %v", tt.in, p, p.Limit(), p.Period(), err)
		}
	}
	if _, err := ParsePlan("gold"); !errors.Is(err, ErrUnknownPlan) {
		t.Errorf("ParsePlan(gold) err = %v, want ErrUnknownPlan", err)
	}
	if !Admin.Unlimited() || Enterprise.Unlimited() {
		t.Errorf("Unlimited: admin %v, enterprise %v; want true, false", Admin.Unlimited(), Enterprise.Unlimited())
	}
	if q, c, err := Split(500, 1_000_000, Admin.Limit(), 0); err != nil || q != 500 || c != 0 {
		t.Errorf("Split on the admin plan after a million pages = %d, %d, %v; want 500, 0, nil", q, c, err)
	}
	if got := (Usage{Used: 7, Limit: 5}).Remaining(); got != 0 {
		t.Errorf("Remaining over the limit = %d, want 0", got)
	}
}
