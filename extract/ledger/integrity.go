package ledger

import (
	"fmt"
	"slices"
	"strings"
)

// Severities of an integrity signal, weakest first. Only medium and high
// say that a person should look before trusting the document; info and
// low are what genuine files also show (a bank's incremental save, a
// browser's "print to PDF").
const (
	SeverityInfo   = "info"
	SeverityLow    = "low"
	SeverityMedium = "medium"
	SeverityHigh   = "high"
)

// SeverityRank orders severities: info 0, low 1, medium 2, high 3; -1 for
// anything else.
func SeverityRank(s string) int {
	switch s {
	case SeverityInfo:
		return 0
	case SeverityLow:
		return 1
	case SeverityMedium:
		return 2
	case SeverityHigh:
		return 3
	}
	return -1
}

// Signal is one sign, found in the file itself, that a statement may have
// been altered after its bank made it.
type Signal struct {
	// Code names the kind of sign (extract/integrity lists them).
	Code string `json:"code"`
	// Severity is info, low, medium or high.
	Severity string `json:"severity"`
	// Page is the 1-based page the sign is on, or 0 for the whole file.
	Page int `json:"page"`
	// BBox is where on the page, [x0, y0, x1, y1] in points from the
	// page's top-left corner (the unit of Transaction.Box); nil when the
	// sign is not local.
	BBox *[4]float64 `json:"bbox,omitempty"`
	// Evidence says in words what was found: for a revision, the earlier
	// text and the new.
	Evidence string `json:"evidence"`
}

// Integrity is the integrity report of a document: the signs of
// alteration found in it, and one line that sums them up.
type Integrity struct {
	Signals []Signal `json:"signals"`
	Summary string   `json:"summary"`
	// Profile is how the file was built (producer, version, fonts, page
	// size), for comparing a statement with the same account's other
	// months; nil for an image.
	Profile *Profile `json:"profile,omitempty"`
}

// Profile is how a PDF was built, in terms that stay the same from one
// month's statement to the next when one system prints them.
type Profile struct {
	Producer string   `json:"producer,omitempty"`
	Creator  string   `json:"creator,omitempty"`
	Version  string   `json:"version,omitempty"`
	Fonts    []string `json:"fonts,omitempty"`
	PageSize string   `json:"page_size,omitempty"`
	// Structure names the file's layout: "xref" or "xref-stream", and
	// "linearized" and "incremental" where they apply.
	Structure string `json:"structure,omitempty"`
}

// Worst is the highest severity among the report's signals, "" when there
// is none.
func (in *Integrity) Worst() string {
	if in == nil {
		return ""
	}
	worst := ""
	for _, s := range in.Signals {
		if SeverityRank(s.Severity) > SeverityRank(worst) {
			worst = s.Severity
		}
	}
	return worst
}

// CodeMonthDiffers is the code of the signal CompareMonths gives.
const CodeMonthDiffers = "month_differs"

// CompareMonths compares each of one account's statements, in period
// order, with the months around it: the one before and the one after, or
// at either end the two beside it. A month built unlike them (another
// producer, PDF version, page size, file structure, or fonts it shares
// with neither) while they agree with each other is a medium signal; the
// result holds one per statement, nil where there is none. A nil profile
// (an image, an older result) takes no part.
func CompareMonths(profiles []*Profile) []*Signal {
	out := make([]*Signal, len(profiles))
	var idx []int
	for i, p := range profiles {
		if p != nil {
			idx = append(idx, i)
		}
	}
	if len(idx) < 3 {
		return out
	}
	for k, i := range idx {
		var a, b *Profile
		switch {
		case k == 0:
			a, b = profiles[idx[1]], profiles[idx[2]]
		case k == len(idx)-1:
			a, b = profiles[idx[k-1]], profiles[idx[k-2]]
		default:
			a, b = profiles[idx[k-1]], profiles[idx[k+1]]
		}
		cur := profiles[i]
		var diffs []string
		field := func(name, c, x, y string) {
			if x == y && c != x {
				diffs = append(diffs, fmt.Sprintf("%s %q where the months around it have %q", name, c, x))
			}
		}
		field("producer", ToolName(cur.Producer), ToolName(a.Producer), ToolName(b.Producer))
		field("PDF version", cur.Version, a.Version, b.Version)
		field("page size", cur.PageSize, a.PageSize, b.PageSize)
		field("structure", cur.Structure, a.Structure, b.Structure)
		if shares(a.Fonts, b.Fonts) && !shares(cur.Fonts, a.Fonts) && !shares(cur.Fonts, b.Fonts) && len(cur.Fonts) > 0 {
			diffs = append(diffs, fmt.Sprintf("fonts %s where the months around it use %s", strings.Join(cur.Fonts, ", "), strings.Join(a.Fonts, ", ")))
		}
		if len(diffs) > 0 {
			out[i] = &Signal{Code: CodeMonthDiffers, Severity: SeverityMedium, Evidence: "this month's file is built unlike the months around it: " + strings.Join(diffs, "; ")}
		}
	}
	return out
}

// ToolName is a producer's name without its version: its first word,
// lower case ("skia/pdf" of "Skia/PDF m156").
func ToolName(s string) string {
	if f := strings.Fields(strings.ToLower(s)); len(f) > 0 {
		return strings.TrimRight(f[0], ",;:")
	}
	return ""
}

func shares(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}
