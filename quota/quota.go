// Package quota is plan policy: how many pages a plan may convert in which
// period, when a period starts and resets, and how an upload's pages are
// split between the period's quota and the account's extra credits.
package quota

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// ErrExceeded means neither the period's quota nor the credits cover an upload.
var ErrExceeded = errors.New("page quota exceeded")

// ErrUnknownPlan means a plan name is not one of the plans.
var ErrUnknownPlan = errors.New("unknown plan: use free, professional, business, enterprise or admin")

// Plan is a subscription plan, named in lowercase as the API shows it.
type Plan string

// The plans of the API spec.
const (
	Free         Plan = "free"
	Professional Plan = "professional"
	Business     Plan = "business"
	Enterprise   Plan = "enterprise"
	// Admin is the administrator's own plan, beyond the spec's four: no page
	// limit, so whoever runs the server is never refused by it. The first
	// account of a new data file gets it.
	Admin Plan = "admin"
)

// NoLimit is the page limit of a plan without one. It is an int all the
// same, so the API's quota.limit and quota.remaining stay integers.
const NoLimit = math.MaxInt32

// Period is the length of a quota period, as the API's quota.period shows it.
type Period string

// Quota periods: calendar days and calendar months.
const (
	Day   Period = "day"
	Month Period = "month"
)

type terms struct {
	limit  int
	period Period
}

var plans = map[Plan]terms{
	Free:         {5, Day},
	Professional: {400, Month},
	Business:     {1000, Month},
	Enterprise:   {2000, Month},
	Admin:        {NoLimit, Month},
}

// ParsePlan reads a plan name in any case.
func ParsePlan(s string) (Plan, error) {
	p := Plan(strings.ToLower(strings.TrimSpace(s)))
	if _, ok := plans[p]; !ok {
		return "", fmt.Errorf("%q: %w", s, ErrUnknownPlan)
	}
	return p, nil
}

// Limit is the pages the plan allows in one period.
func (p Plan) Limit() int { return plans[p].limit }

// Unlimited reports whether the plan has no page limit.
func (p Plan) Unlimited() bool { return p.Limit() == NoLimit }

// Period is the plan's quota period.
func (p Plan) Period() Period { return plans[p].period }

// Window is the quota period that contains t, in the time zone loc: it
// starts at Start and the quota resets at End.
func (p Plan) Window(t time.Time, loc *time.Location) (start, end time.Time) {
	if loc == nil {
		loc = time.UTC
	}
	l := t.In(loc)
	switch p.Period() {
	case Day:
		start = time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
		end = start.AddDate(0, 0, 1)
	default:
		start = time.Date(l.Year(), l.Month(), 1, 0, 0, 0, 0, loc)
		end = start.AddDate(0, 1, 0)
	}
	return start, end
}

// Split decides how an upload of pages is paid: first from what is left of
// the period's quota, then from credits. It returns ErrExceeded, and charges
// nothing, when the two together do not cover it.
func Split(pages, used, limit, credits int) (fromQuota, fromCredits int, err error) {
	left := max(limit-used, 0)
	fromQuota = min(pages, left)
	fromCredits = pages - fromQuota
	if fromCredits > credits {
		return 0, 0, ErrExceeded
	}
	return fromQuota, fromCredits, nil
}

// Usage is an account's standing in its current period.
type Usage struct {
	Used, Limit int
	Period      Period
	// Start is when the current period began.
	Start time.Time
	// ResetsAt is when the period ends and the quota is full again.
	ResetsAt time.Time
	Credits  int
}

// Remaining is what is left of the period's quota (credits not included).
func (u Usage) Remaining() int { return max(u.Limit-u.Used, 0) }
