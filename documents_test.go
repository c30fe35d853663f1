package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"passbook/quota"
	"passbook/store"
)

func TestDocumentsCommand(t *testing.T) {
	data := filepath.Join(t.TempDir(), "p.db")
	ctx := context.Background()
	st, err := store.Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := st.CreateAccount(ctx, "office@example.com", quota.Business)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := st.CreateDocument(ctx, store.NewDocument{AccountID: acc.ID, OriginalName: "june.pdf", Kind: "pdf", PageCount: 3, Content: []byte("%PDF-1.4")})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	cmd := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, append(args, "--data", data), os.Getenv, nil, &out, io.Discard)
		return out.String(), err
	}
	for _, step := range []struct {
		args []string
		want string
		err  bool
	}{
		{[]string{"documents", "list", "office@example.com"}, doc.ID, false},
		{[]string{"documents", "list", "nobody@example.com"}, "", true},
		{[]string{"documents", "delete", doc.ID}, "deleted " + doc.ID, false},
		{[]string{"documents", "delete", doc.ID}, "", true},
		{[]string{"documents", "purge"}, "", true},
	} {
		out, err := cmd(step.args...)
		if (err != nil) != step.err || !strings.Contains(out, step.want) {
			t.Errorf("%v: err = %v, output %q; want error %v and %q", step.args, err, out, step.err, step.want)
		}
	}
	if out, _ := cmd("documents", "list", "office@example.com"); strings.Contains(out, doc.ID) {
		t.Errorf("deleted document still listed:\n%s", out)
	}
	if out, _ := cmd("accounts", "list"); !strings.Contains(out, "  3  ") {
		t.Errorf("pages of a deleted document no longer charged:\n%s", out)
	}
}
