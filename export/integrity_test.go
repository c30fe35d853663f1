package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"passbook/extract/ledger"

	"github.com/xuri/excelize/v2"
)

// withIntegrity is sample() with an integrity report of one high signal.
func withIntegrity() *ledger.Result {
	res := sample()
	box := [4]float64{400, 300, 450, 310}
	res.Integrity = &ledger.Integrity{
		Signals: []ledger.Signal{
			{Code: "revision_text_changed", Severity: ledger.SeverityHigh, Page: 1, BBox: &box, Evidence: `earlier "1,234.00", now "1,934.00"`},
			{Code: "incremental_update", Severity: ledger.SeverityInfo, Evidence: "saved once after it was made"},
		},
		Summary: "1 sign of alteration",
		Profile: &ledger.Profile{Producer: "Skia/PDF m156"},
	}
	return res
}

func TestJSONIntegrity(t *testing.T) {
	var doc struct {
		Integrity *struct {
			Signals []map[string]any `json:"signals"`
			Summary string           `json:"summary"`
			Profile any              `json:"profile"`
		} `json:"integrity"`
	}
	if err := json.Unmarshal(write(t, JSON, withIntegrity()), &doc); err != nil {
		t.Fatal(err)
	}
	in := doc.Integrity
	if in == nil || len(in.Signals) != 2 || in.Summary != "1 sign of alteration" {
		t.Fatalf("integrity = %+v, want two signals and the summary", in)
	}
	s := in.Signals[0]
	if s["code"] != "revision_text_changed" || s["severity"] != "high" || s["page"] != float64(1) || s["evidence"] == "" {
		t.Errorf("signal = %v", s)
	}
	if b, ok := s["bbox"].([]any); !ok || len(b) != 4 || b[0] != float64(400) {
		t.Errorf("bbox = %v, want [400 300 450 310]", s["bbox"])
	}
	if w := in.Signals[1]; w["page"] != float64(0) || w["bbox"] != nil {
		t.Errorf("a whole-file signal = %v, want page 0 and no bbox", w)
	}
	if in.Profile != nil {
		t.Errorf("the JSON carries the file's profile %v: it is the stored result's, for folders", in.Profile)
	}

	// A result converted before there were reports has no integrity key.
	var raw map[string]any
	if err := json.Unmarshal(write(t, JSON, sample()), &raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := raw["integrity"]; ok {
		t.Errorf("a result without a report has an integrity key: %v", raw["integrity"])
	}
}

// TestExportsIgnoreIntegrity: the report is in the JSON only; every other
// format is byte for byte what it is without one.
func TestExportsIgnoreIntegrity(t *testing.T) {
	for _, f := range Formats {
		if f == JSON {
			continue
		}
		a, b := write(t, f, sample()), write(t, f, withIntegrity())
		if f == XLSX {
			a, b = cellText(t, a), cellText(t, b)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s changes with an integrity report", f)
		}
	}
}

// cellText is every cell of every sheet of an XLSX, in order: the zip
// itself carries times.
func cellText(t *testing.T, body []byte) []byte {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, sh := range x.GetSheetList() {
		rows, err := x.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			for _, c := range r {
				out.WriteString(c + "\t")
			}
			out.WriteString("\n")
		}
	}
	return out.Bytes()
}

// TestFolderMonthDiffers: four months of one account, the third built by
// another producer with other fonts: it alone is marked medium, with
// what differs; the document's own high signal shows beside it, and its
// info notes do not.
func TestFolderMonthDiffers(t *testing.T) {
	bank := ledger.Profile{Producer: "Skia/PDF m156", Version: "1.4", Fonts: []string{"Arial"}, PageSize: "612x792", Structure: "xref"}
	odd := ledger.Profile{Producer: "iText 5.5", Version: "1.4", Fonts: []string{"Helvetica"}, PageSize: "612x792", Structure: "xref"}
	months := []struct {
		from, to, opening string
		prof              ledger.Profile
		signals           []ledger.Signal
	}{
		{"2024-01-01", "2024-01-31", "100", bank, []ledger.Signal{{Code: "browser_print", Severity: ledger.SeverityInfo}}},
		{"2024-02-01", "2024-02-29", "110", bank, nil},
		{"2024-03-01", "2024-03-31", "120", odd, nil},
		{"2024-04-01", "2024-04-30", "130", func() ledger.Profile { p := bank; p.Producer = "Skia/PDF m157"; return p }(),
			[]ledger.Signal{{Code: "covering_box", Severity: ledger.SeverityHigh, Page: 1}}},
	}
	var sources []Source
	for i, m := range months {
		res := monthly("12-3456", "EUR", m.from, m.to, m.opening, tx{m.from, "10", "interest"})
		prof := m.prof
		res.Integrity = &ledger.Integrity{Signals: m.signals, Summary: fmt.Sprintf("month %d", i+1), Profile: &prof}
		sources = append(sources, src(fmt.Sprintf("m%d", i+1), res))
	}
	set := NewSet(sources)
	// The CLI's report (extract --combine) names the two months and why;
	// a folder with no medium or high signal says so in one line.
	var buf bytes.Buffer
	if err := set.WriteReport(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "integrity:") })
	if at < 0 || lines[at] != "integrity: 2 of 4 statements show signs of alteration" ||
		!strings.HasPrefix(lines[at+1], "  m3: ") || !strings.Contains(lines[at+1], `producer "itext"`) ||
		lines[at+2] != "  m4: month 4" {
		t.Errorf("report:\n%s", buf.String())
	}
	buf.Reset()
	if err := NewSet(sources[:2]).WriteReport(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\nintegrity: no sign of alteration found in 2 statements\n") {
		t.Errorf("report of two plain months:\n%s", buf.String())
	}
	js := set.JSON()
	if len(js.Accounts) != 1 || len(js.Accounts[0].Statements) != 4 {
		t.Fatalf("accounts = %+v", js.Accounts)
	}
	for i, st := range js.Accounts[0].Statements {
		in := st.Integrity
		if in == nil {
			t.Fatalf("statement %d has no integrity", i+1)
		}
		var codes []string
		for _, s := range in.Signals {
			codes = append(codes, s.Code+"/"+s.Severity)
		}
		want := map[int]string{0: "", 1: "", 2: "month_differs/medium", 3: "covering_box/high"}[i]
		if strings.Join(codes, ",") != want {
			t.Errorf("statement %d signals = %v, want %q", i+1, codes, want)
		}
		if i == 2 && (in.Worst != ledger.SeverityMedium || !strings.Contains(in.Signals[0].Evidence, `producer "itext"`) || !strings.Contains(in.Signals[0].Evidence, "fonts Helvetica")) {
			t.Errorf("the odd month = %+v", in)
		}
		if i == 0 && in.Worst != ledger.SeverityInfo {
			t.Errorf("the first month's worst = %q, want info", in.Worst)
		}
	}
}
