package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passbook/extract"
	"passbook/extract/engine"
)

// TestRedactCommand: passbook redact writes a copy that reads as the
// original (its rows and status) with a sidecar that says so; a photo
// is refused with a clear reason and nothing written.
func TestRedactCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "copy.pdf")
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"redact", "testdata/sample_statement.pdf", "-o", out}, os.Getenv, nil, io.Discard, &stderr); err != nil {
		t.Fatalf("redact: %v (%s)", err, stderr.String())
	}
	copyPDF, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var side struct {
		Rows           int    `json:"rows"`
		Reconciliation string `json:"reconciliation"`
		Version        string `json:"converter_version"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "copy.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &side); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile("testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	o, err := engine.New().Convert(orig, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.New().Convert(copyPDF, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Transactions) != len(o.Transactions) || side.Rows != len(o.Transactions) ||
		c.Statement.Reconciliation.Status != o.Statement.Reconciliation.Status || side.Reconciliation != o.Statement.Reconciliation.Status || side.Version == "" {
		t.Errorf("copy: %d rows %q, sidecar %+v; original %d rows %q", len(c.Transactions), c.Statement.Reconciliation.Status, side, len(o.Transactions), o.Statement.Reconciliation.Status)
	}
	for i := range o.Transactions {
		if o.Transactions[i].Description == c.Transactions[i].Description && strings.ContainsAny(o.Transactions[i].Description, "abcdefghijklmnopqrstuvwxyz") {
			t.Errorf("row %d's description %q was not replaced", i, o.Transactions[i].Description)
		}
	}

	// An encrypted statement, with its password: the copy is not
	// encrypted, and reads as the original's rows.
	encOut := filepath.Join(dir, "enc.pdf")
	if err := run(context.Background(), []string{"redact", "--password", "s3cret", "testdata/encrypted_statement.pdf", "-o", encOut}, os.Getenv, nil, io.Discard, io.Discard); err != nil {
		t.Fatalf("redact an encrypted statement: %v", err)
	}
	encCopy, err := os.ReadFile(encOut)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(encCopy, []byte("/Encrypt")) {
		t.Error("the copy of an encrypted statement is encrypted")
	}
	if res, err := engine.New().Convert(encCopy, extract.Options{}); err != nil || len(res.Transactions) != 8 {
		t.Errorf("the copy of the encrypted statement: %v", err)
	}

	// A picture of the page (a screenshot): copied as an image, its
	// sidecar saying so, and its copy, recognised, reads its rows.
	pic := filepath.Join(dir, "page.png")
	if err := os.WriteFile(pic, pagePNG(t, orig), 0o644); err != nil {
		t.Fatal(err)
	}
	picOut := filepath.Join(dir, "page-copy.pdf")
	if err := run(context.Background(), []string{"redact", pic, "-o", picOut}, os.Getenv, nil, io.Discard, io.Discard); err != nil {
		t.Fatalf("redact of a picture of the page: %v", err)
	}
	var picSide struct {
		Rows     int    `json:"rows"`
		Scan     bool   `json:"scan"`
		Fidelity string `json:"fidelity"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "page-copy.json")); err != nil || json.Unmarshal(b, &picSide) != nil || !picSide.Scan || picSide.Fidelity == "" || picSide.Rows != len(o.Transactions) {
		t.Errorf("the picture's sidecar %+v (%v): want a scan's, %d rows, saying it is less faithful", picSide, err, len(o.Transactions))
	}
	picCopy, err := os.ReadFile(picOut)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := engine.New().Convert(picCopy, extract.Options{}); err != nil || len(res.Transactions) != len(o.Transactions) {
		t.Errorf("the picture's copy: %v", err)
	}
}

// pagePNG is a statement's first page drawn at 200 DPI, as a PNG.
func pagePNG(t *testing.T, pdf []byte) []byte {
	t.Helper()
	img, err := engine.New().RenderPage(pdf, "", 1, 1654)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(img.PNG)); err != nil {
		t.Fatal(err)
	}
	return img.PNG
}

// TestRedactServed: GET /api/v1/redact?file_id= answers a converted
// statement's copy, made and checked in a worker, as a PDF named for the
// document's id (not its original name); an unknown id is 404, a
// document still converting 409 with Retry-After.
func TestRedactServed(t *testing.T) {
	srv := serve(t, filepath.Join(t.TempDir(), "passbook.db"))
	key := keyRE.FindString(srv.stdout.String())
	c := client{t: t, base: "http://" + srv.addr, key: key}
	sample, err := os.ReadFile("testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	id := c.upload("Josephine Quartermaine march.pdf", sample)
	waitFor(t, "the conversion", func() string {
		if st := c.status(id); st.Status != "processing" {
			return st.Status
		}
		return ""
	})
	get := func(fileID string) *http.Response {
		req, _ := http.NewRequest("GET", c.base+"/api/v1/redact?file_id="+fileID, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := get(id)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(body, []byte("%PDF-")) {
		t.Fatalf("redact: %d %s %.200q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if cd := resp.Header.Get("Content-Disposition"); strings.Contains(cd, "Quartermaine") || !strings.Contains(cd, id) {
		t.Errorf("Content-Disposition %q: want the document's id, not its original name", cd)
	}
	res, err := engine.New().Convert(body, extract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("X-Redact-Rows") != "8" || len(res.Transactions) != 8 || resp.Header.Get("X-Redact-Reconciliation") != res.Statement.Reconciliation.Status {
		t.Errorf("the copy reads %d rows %q; headers say %s %s", len(res.Transactions), res.Statement.Reconciliation.Status, resp.Header.Get("X-Redact-Rows"), resp.Header.Get("X-Redact-Reconciliation"))
	}
	// A picture of the statement: its copy is a PDF of the page image,
	// painted over, that reads the same rows.
	picID := c.upload("Josephine Quartermaine march.png", pagePNG(t, sample))
	waitFor(t, "the picture's conversion", func() string {
		if st := c.status(picID); st.Status != "processing" {
			return st.Status
		}
		return ""
	})
	resp = get(picID)
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(body, []byte("%PDF-")) {
		t.Fatalf("redact of a picture: %d %s %.300q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if resp.Header.Get("X-Redact-Rows") != "8" || !bytes.Contains(body, []byte("/Subtype /Image")) || bytes.Contains(body, []byte("/Font")) {
		t.Errorf("the picture's copy: %s rows, want 8, as a page image with no text", resp.Header.Get("X-Redact-Rows"))
	}
	resp = get("doc_00000000000000000000000000000000")
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown file_id: %d, want 404", resp.StatusCode)
	}
}
