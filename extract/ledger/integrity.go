package ledger

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
