package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"unicode"

	"passbook/quota"
)

// FuzzUpload feeds arbitrary multipart bodies to the upload reader: it
// never panics, answers every bad body with an *apiError, and a body it
// takes leaves exactly the file part's bytes in a private temporary file
// with a clean name. Seeds: testdata/fuzz/FuzzUpload.
func FuzzUpload(f *testing.F) {
	ok, ctype := form(map[string][]byte{"file": sample, "password": []byte("pw")})
	okBody, _ := io.ReadAll(ok)
	boundary := strings.TrimPrefix(ctype, "multipart/form-data; boundary=")
	f.Add(boundary, okBody)
	f.Add("XX", []byte("--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\u202egpj.exe\"\r\n\r\n%PDF-1.4\r\n--XX--\r\n"))
	f.Add("XX", []byte("--XX\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nMZ\r\n--XX--\r\n"))
	f.Add("XX", []byte("--XX\r\n\r\n--XX--"))
	f.Add("", []byte(""))
	dir := f.TempDir()
	s := &Server{cfg: DefaultConfig()}
	s.cfg.TempDir = dir
	s.cfg.MaxUploadBytes = 1 << 20
	f.Fuzz(func(t *testing.T, boundary string, body []byte) {
		r := httptest.NewRequest("POST", "/api/v1/extract", bytes.NewReader(body))
		r.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
		w := httptest.NewRecorder()
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUploadBytes)
		up, err := s.receive(r)
		if up != nil {
			defer up.remove()
		}
		if err != nil {
			if _, isAPI := err.(*apiError); !isAPI {
				t.Fatalf("error %T %v is not an *apiError: it would answer 500", err, err)
			}
			return
		}
		st, serr := os.Stat(up.path)
		if serr != nil || st.Size() != up.size || up.size == 0 || st.Mode().Perm() != 0o600 {
			t.Fatalf("upload file %s: %v, size %d, recorded %d, mode %v", up.path, serr, st.Size(), up.size, st.Mode())
		}
		for _, r := range up.name {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '/' {
				t.Fatalf("name %q keeps %U", up.name, r)
			}
		}
	})
}

// FuzzQuery sends arbitrary query strings to the status and download
// endpoints: never a 500, always a JSON error body with a code or a 200.
// Seeds: testdata/fuzz/FuzzQuery.
func FuzzQuery(f *testing.F) {
	for _, q := range []string{"file_id=doc_x", "format=xlsx&file_id=", "format=%00", "file_id=%ff%fe", "format=csv&format=json", "file_id=" + strings.Repeat("a", 5000), ";;&&=="} {
		f.Add(q)
	}
	e := newEnv(f, false)
	key := e.account("fuzz@example.com", quota.Free)
	e.srv.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	f.Fuzz(func(t *testing.T, q string) {
		for _, path := range []string{"/api/v1/status", "/api/v1/download"} {
			u := &url.URL{Path: path, RawQuery: q}
			r := httptest.NewRequest("GET", "/", nil)
			r.URL = u
			r.RequestURI = u.RequestURI()
			r.Header.Set("Authorization", "Bearer "+key)
			w := httptest.NewRecorder()
			e.srv.ServeHTTP(w, r)
			if w.Code >= 500 {
				t.Fatalf("GET %s?%s: %d %s", path, q, w.Code, w.Body)
			}
			var m map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
				t.Fatalf("GET %s?%s: %d, body not JSON: %q", path, q, w.Code, w.Body)
			}
			if w.Code != 200 && m["code"] == nil {
				t.Fatalf("GET %s?%s: %d without a code: %v", path, q, w.Code, m)
			}
		}
	})
}
