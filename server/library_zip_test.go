package server

import (
	"archive/zip"
	"bytes"
	"io"
	"sort"
	"strings"
	"testing"

	"passbook/quota"
)

// TestDocumentsZipAndFolders downloads several documents as one zip (each
// in the format asked, names kept apart, what is not converted listed) and
// reads each document's folders in the list.
func TestDocumentsZipAndFolders(t *testing.T) {
	e := newEnv(t, true)
	key := e.account("z@example.com", quota.Enterprise)
	_, m, _ := e.do("POST", "/api/v1/folders", key, strings.NewReader(`{"name": "Smith 2024"}`), "application/json")
	fid := m["folder_id"].(string)
	var ids []string
	for i, b := range [][]byte{month(1, 100), month(2, 115.5)} {
		parts := map[string][]byte{"file": b}
		if i == 0 {
			parts["folder_id"] = []byte(fid)
		}
		resp, m := e.upload(key, parts)
		if resp.StatusCode != 200 {
			t.Fatalf("upload: %d %v", resp.StatusCode, m)
		}
		ids = append(ids, m["file_id"].(string))
		e.waitDone(key, ids[i])
	}
	resp, m := e.upload(key, map[string][]byte{"file": append(month(3, 131), "fail boom\n"...)})
	failed := m["file_id"].(string)
	e.waitDone(key, failed)

	// Bytes that failed before are converted again, even with if_new.
	if resp, m := e.upload(key, map[string][]byte{"file": append(month(3, 131), "fail boom\n"...), "if_new": []byte("true")}); resp.StatusCode != 200 || m["file_id"] == failed {
		t.Errorf("failed bytes again with if_new: %d %v", resp.StatusCode, m)
	} else {
		e.waitDone(key, m["file_id"].(string))
	}
	_, list, _ := e.do("GET", "/api/v1/documents", key, nil, "")
	in := map[string]string{}
	for _, d := range list["documents"].([]any) {
		d := d.(map[string]any)
		var names []string
		for _, f := range d["folders"].([]any) {
			names = append(names, f.(map[string]any)["name"].(string))
		}
		in[d["file_id"].(string)] = strings.Join(names, ",")
	}
	if in[ids[0]] != "Smith 2024" || in[ids[1]] != "" {
		t.Errorf("folders in the list: %v", in)
	}
	// Each converted document names its account; a corrected one, the
	// corrected account.
	accounts := func() map[string]any {
		_, list, _ := e.do("GET", "/api/v1/documents", key, nil, "")
		out := map[string]any{}
		for _, d := range list["documents"].([]any) {
			d := d.(map[string]any)
			out[d["file_id"].(string)] = d["account"]
		}
		return out
	}
	if a := accounts(); a[ids[0]] != "12-3456 EUR" || a[failed] != nil {
		t.Errorf("accounts in the list: %v", a)
	}
	if resp, _, raw := e.do("PUT", "/api/v1/documents/"+ids[1]+"/statement", key, strings.NewReader(`{"account_number": "GB29 NWBK 6016 1331 9268 19"}`), "application/json"); resp.StatusCode != 200 {
		t.Fatalf("correct the account: %d %s", resp.StatusCode, raw)
	}
	if a := accounts(); a[ids[1]] != "GB29 NWBK 6016 1331 9268 19 EUR" {
		t.Errorf("the corrected account in the list: %v", a[ids[1]])
	}

	resp, _, body := e.do("GET", "/api/v1/documents/zip?format=csv&file_id="+ids[0]+"&file_id="+ids[1]+"&file_id="+failed, key, nil, "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("zip: %d %s", resp.StatusCode, body)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	files := map[string]string{}
	for _, f := range zr.File {
		names = append(names, f.Name)
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	sort.Strings(names)
	// The test engine names every upload "statement.pdf": the second is kept apart.
	if got := strings.Join(names, "|"); !strings.Contains(got, "not-included.txt") || len(names) != 3 {
		t.Errorf("zip entries: %s", got)
	}
	rows := 0
	for n, b := range files {
		if strings.HasSuffix(n, ".csv") {
			rows += strings.Count(b, "\r\n") - 1
		}
	}
	if rows != 4 || !strings.Contains(files["not-included.txt"], "could not be converted") {
		t.Errorf("zip: %d rows in its CSVs (want 4), not-included %q", rows, files["not-included.txt"])
	}
	resp, m, _ = e.do("GET", "/api/v1/documents/zip?format=csv", key, nil, "")
	wantError(t, resp, m, 400, "missing_file_id")
	other := e.account("o@example.com", quota.Enterprise)
	resp, m, _ = e.do("GET", "/api/v1/documents/zip?file_id="+ids[0], other, nil, "")
	wantError(t, resp, m, 403, "forbidden")
}
