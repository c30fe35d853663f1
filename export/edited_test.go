package export

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestEditedAndPlaced checks the marks a corrected document carries and that
// rows with a known place on the page say where.
func TestEditedAndPlaced(t *testing.T) {
	res := sample()
	res.Transactions[0].Page = 1
	res.Transactions[0].Box = [4]float64{10, 20, 300, 32}
	res.Transactions[0].Account = "12-34"
	for _, edited := range []bool{false, true} {
		var buf bytes.Buffer
		var err error
		if edited {
			err = WriteEdited(&buf, JSON, Options{FileID: "doc_test"}, res)
		} else {
			err = Write(&buf, JSON, Options{FileID: "doc_test"}, res)
		}
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Transactions []map[string]any `json:"transactions"`
			Statement    map[string]any   `json:"statement"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if got, _ := doc.Statement["edited"].(bool); got != edited {
			t.Errorf("statement.edited: got %v, want %v", doc.Statement["edited"], edited)
		}
		if got := doc.Transactions[0]["page"]; got != 1.0 {
			t.Errorf("page: got %v, want 1", got)
		}
		if got, _ := json.Marshal(doc.Transactions[0]["box"]); string(got) != "[10,20,300,32]" {
			t.Errorf("box: got %s, want [10,20,300,32]", got)
		}
		if got := doc.Transactions[0]["account"]; got != "12-34" {
			t.Errorf("account: got %v, want 12-34", got)
		}
		if _, ok := doc.Transactions[1]["box"]; ok {
			t.Errorf("row without a place has a box: %v", doc.Transactions[1])
		}
	}
	var buf bytes.Buffer
	if err := WriteEdited(&buf, XLSX, Options{FileID: "doc_test"}, res); err != nil {
		t.Fatal(err)
	}
	f := openXLSX(t, buf.Bytes())
	rows, err := f.GetRows(statementSheet)
	if err != nil {
		t.Fatal(err)
	}
	if last := rows[len(rows)-1]; len(last) < 2 || last[0] != "Edited" {
		t.Errorf("XLSX summary's last row: got %v, want Edited", last)
	}
}
