package export

import (
	"bytes"
	"encoding/json"
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
