package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"passbook/quota"
)

// TestSearchDocuments searches, filters, orders and pages an office's
// documents on each database: by words of the file name, the account
// (with or without its spaces), the bank, the holder and a folder's name;
// by status and reconciliation; by folder; by the statement's period (the
// upload's day when it is not known); and pages through each order
// without a document twice or left out. Folders are found by their
// documents' words too.
func TestSearchDocuments(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Enterprise)
		b := newAccount(t, s, "b@example.com", quota.Enterprise)
		type doc struct {
			name   string
			labels *DocumentLabels
			rec    string // "" leaves it processing
		}
		docs := []doc{
			{"Jan.pdf", &DocumentLabels{Account: "DE89 3704 0044 EUR", Bank: "Northbridge Bank", Holder: "Anna Schäfer", PeriodStart: "2024-01-01", PeriodEnd: "2024-01-31"}, "ok"},
			{"feb.pdf", &DocumentLabels{Account: "DE89 3704 0044 EUR", Bank: "Northbridge Bank", Holder: "Anna Schäfer", PeriodStart: "2024-02-01", PeriodEnd: "2024-02-29"}, "mismatch"},
			{"card_march.pdf", &DocumentLabels{Account: "12-3456 GBP", Bank: "Maple Trust", PeriodStart: "2024-03-01", PeriodEnd: "2024-03-31"}, "unverified"},
			{"100%.pdf", &DocumentLabels{Account: ""}, "no_transactions"},
			{"scan.pdf", nil, ""},
		}
		ids := map[string]string{}
		for i, d := range docs {
			c.Set(time.Date(2024, 4, 1+i, 9, 0, 0, 0, time.UTC))
			got, err := s.CreateDocument(ctx, NewDocument{AccountID: a.ID, OriginalName: d.name, Kind: "pdf", PageCount: 1, Content: []byte("%PDF-1.4 " + d.name)})
			if err != nil {
				t.Fatal(err)
			}
			ids[d.name] = got.ID
			if d.rec == "" {
				continue
			}
			job, err := s.ClaimJob(ctx)
			if err != nil || job.DocumentID != got.ID {
				t.Fatalf("claim %s: %v %v", d.name, job.DocumentID, err)
			}
			if err := s.CompleteJob(ctx, job, 2, d.rec, []byte(`{}`)); err != nil {
				t.Fatal(err)
			}
			if err := s.SetLabels(ctx, got.ID, d.labels); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.CreateDocument(ctx, NewDocument{AccountID: b.ID, OriginalName: "Jan.pdf", Kind: "pdf", PageCount: 1, Content: []byte("%PDF-1.4 b")}); err != nil {
			t.Fatal(err)
		}
		f, err := s.CreateFolder(ctx, a.ID, "Schäfer GmbH 2024")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddToFolder(ctx, f.ID, ids["card_march.pdf"]); err != nil {
			t.Fatal(err)
		}
		names := func(q DocumentQuery) string {
			t.Helper()
			if q.Limit == 0 {
				q.Limit = 50
			}
			var out []string
			for {
				got, next, err := s.SearchDocuments(ctx, a.ID, q)
				if err != nil {
					t.Fatalf("%+v: %v", q, err)
				}
				for _, d := range got {
					if slices.Contains(out, d.OriginalName) {
						t.Fatalf("%+v: %s twice", q, d.OriginalName)
					}
					out = append(out, d.OriginalName)
				}
				if next == "" {
					return strings.Join(out, ",")
				}
				q.Before = next
			}
		}
		for _, tc := range []struct {
			what string
			q    DocumentQuery
			want string
		}{
			{"all, newest first", DocumentQuery{}, "scan.pdf,100%.pdf,card_march.pdf,feb.pdf,Jan.pdf"},
			{"a page at a time", DocumentQuery{Limit: 2}, "scan.pdf,100%.pdf,card_march.pdf,feb.pdf,Jan.pdf"},
			{"oldest", DocumentQuery{Sort: "oldest", Limit: 2}, "Jan.pdf,feb.pdf,card_march.pdf,100%.pdf,scan.pdf"},
			{"name", DocumentQuery{Sort: "name", Limit: 2}, "100%.pdf,card_march.pdf,feb.pdf,Jan.pdf,scan.pdf"},
			{"result", DocumentQuery{Sort: "result", Limit: 2}, "feb.pdf,scan.pdf,card_march.pdf,100%.pdf,Jan.pdf"},
			{"file name, any case", DocumentQuery{Text: "JAN"}, "Jan.pdf"},
			{"bank", DocumentQuery{Text: "northbridge"}, "feb.pdf,Jan.pdf"},
			{"bank and name", DocumentQuery{Text: "Northbridge feb"}, "feb.pdf"},
			{"holder", DocumentQuery{Text: "schäfer"}, "card_march.pdf,feb.pdf,Jan.pdf"},
			{"account without its spaces", DocumentQuery{Text: "37040044"}, "feb.pdf,Jan.pdf"},
			{"account with other marks", DocumentQuery{Text: "12 3456"}, "card_march.pdf"},
			{"folder name", DocumentQuery{Text: "gmbh"}, "card_march.pdf"},
			{"a % is a percent sign", DocumentQuery{Text: "%"}, "100%.pdf"},
			{"an _ is an underscore", DocumentQuery{Text: "d_m"}, "card_march.pdf"},
			{"nothing", DocumentQuery{Text: "nowhere"}, ""},
			{"processing", DocumentQuery{Status: StatusProcessing}, "scan.pdf"},
			{"mismatch", DocumentQuery{Status: "mismatch"}, "feb.pdf"},
			{"unverified", DocumentQuery{Status: "unverified"}, "card_march.pdf"},
			{"in the folder", DocumentQuery{FolderID: f.ID}, "card_march.pdf"},
			{"in no folder", DocumentQuery{NoFolder: true, Limit: 1}, "scan.pdf,100%.pdf,feb.pdf,Jan.pdf"},
			{"period from", DocumentQuery{From: "2024-02-15"}, "scan.pdf,100%.pdf,card_march.pdf,feb.pdf"},
			{"period to", DocumentQuery{To: "2024-02-01"}, "feb.pdf,Jan.pdf"},
			{"period within", DocumentQuery{From: "2024-02-10", To: "2024-03-05"}, "card_march.pdf,feb.pdf"},
			{"upload day when no period", DocumentQuery{From: "2024-04-05", To: "2024-04-05"}, "scan.pdf"},
		} {
			if got := names(tc.q); got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.what, got, tc.want)
			}
		}
		// Folders are found by their name and their documents' words.
		for _, tc := range []struct{ text, want string }{{"maple", f.ID}, {"GmbH 12-3456", f.ID}, {"card_march", f.ID}, {"northbridge", ""}, {"", f.ID}} {
			fs, err := s.SearchFolders(ctx, a.ID, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, x := range fs {
				got = append(got, x.ID)
			}
			if strings.Join(got, ",") != tc.want {
				t.Errorf("folders by %q: got %v, want %q", tc.text, got, tc.want)
			}
		}
		if fs, err := s.SearchFolders(ctx, b.ID, "maple"); err != nil || len(fs) != 0 {
			t.Errorf("another account's folders by maple: %v %v", fs, err)
		}
		// Labels forgotten (a correction) leave the name searchable and
		// the bank not.
		if err := s.SetLabels(ctx, ids["Jan.pdf"], nil); err != nil {
			t.Fatal(err)
		}
		if got := names(DocumentQuery{Text: "northbridge"}); got != "feb.pdf" {
			t.Errorf("bank after the labels were forgotten: %q", got)
		}
		labels, err := s.Labels(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if l := labels[ids["feb.pdf"]]; l.Bank != "Northbridge Bank" || l.Holder != "Anna Schäfer" || l.PeriodEnd != "2024-02-29" {
			t.Errorf("labels of feb.pdf: %+v", l)
		}
		if _, ok := labels[ids["Jan.pdf"]]; ok {
			t.Error("Jan.pdf keeps labels after they were forgotten")
		}
		if _, _, err := s.SearchDocuments(ctx, b.ID, DocumentQuery{Limit: 5, Before: ids["Jan.pdf"]}); !errors.Is(err, ErrNotFound) {
			t.Errorf("before of another account: %v", err)
		}
	})
}

// TestSearchTransactions (issue 42 point 7): an office's transactions are
// found by words of their description or account, by an amount range
// either way, by dates, and within a folder; another office's never; a
// document's rows go with its labels and with the document.
func TestSearchTransactions(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Store, c *clock) {
		ctx := context.Background()
		a := newAccount(t, s, "a@example.com", quota.Enterprise)
		b := newAccount(t, s, "b@example.com", quota.Enterprise)
		doc := func(acc Account, name string, rows ...TransactionRow) string {
			t.Helper()
			got, err := s.CreateDocument(ctx, NewDocument{AccountID: acc.ID, OriginalName: name, Kind: "pdf", PageCount: 1, Content: []byte("%PDF-1.4 " + name)})
			if err != nil {
				t.Fatal(err)
			}
			job, err := s.ClaimJob(ctx)
			if err != nil || job.DocumentID != got.ID {
				t.Fatalf("claim %s: %v %v", name, job.DocumentID, err)
			}
			if err := s.CompleteJob(ctx, job, 1, "ok", []byte(`{}`)); err != nil {
				t.Fatal(err)
			}
			if err := s.SetLabels(ctx, got.ID, &DocumentLabels{Account: "DE89 3704 EUR", Rows: rows}); err != nil {
				t.Fatal(err)
			}
			return got.ID
		}
		jan := doc(a, "jan.pdf",
			TransactionRow{Date: "2024-01-03", Amount: -1240, Balance: "987.60", Description: "Café Müller", Account: "DE89 3704 EUR"},
			TransactionRow{Date: "2024-01-20", Amount: 250000, Balance: "3487.60", Description: "SALARY ACME LTD", Account: "DE89 3704 EUR"})
		feb := doc(a, "feb.pdf",
			TransactionRow{Date: "2024-02-02", Amount: -124000, Balance: "2247.60", Description: "RENT FEBRUARY", Account: "DE89 3704 EUR"})
		doc(b, "other.pdf", TransactionRow{Date: "2024-01-03", Amount: -1240, Balance: "1.00", Description: "Café Müller", Account: "GB12 EUR"})
		f, err := s.CreateFolder(ctx, a.ID, "Client 2024")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddToFolder(ctx, f.ID, feb); err != nil {
			t.Fatal(err)
		}
		cents := func(n int64) *int64 { return &n }
		found := func(q TransactionQuery) string {
			t.Helper()
			q.AccountID = a.ID
			hits, err := s.SearchTransactions(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, h := range hits {
				out = append(out, fmt.Sprintf("%s:%d:%s", h.OriginalName, h.Row, h.Description))
			}
			return strings.Join(out, " ")
		}
		for _, tt := range []struct {
			name string
			q    TransactionQuery
			want string
		}{
			{"everything, newest first", TransactionQuery{}, "feb.pdf:0:RENT FEBRUARY jan.pdf:1:SALARY ACME LTD jan.pdf:0:Café Müller"},
			{"a word of the description, any case", TransactionQuery{Text: "müller"}, "jan.pdf:0:Café Müller"},
			{"two words", TransactionQuery{Text: "acme salary"}, "jan.pdf:1:SALARY ACME LTD"},
			{"the account without its spaces", TransactionQuery{Account: "DE893704"}, "feb.pdf:0:RENT FEBRUARY jan.pdf:1:SALARY ACME LTD jan.pdf:0:Café Müller"},
			{"an amount range, money out too", TransactionQuery{Min: cents(1000), Max: cents(2000)}, "jan.pdf:0:Café Müller"},
			{"at least 1,000", TransactionQuery{Min: cents(100000)}, "feb.pdf:0:RENT FEBRUARY jan.pdf:1:SALARY ACME LTD"},
			{"dates", TransactionQuery{From: "2024-01-10", To: "2024-01-31"}, "jan.pdf:1:SALARY ACME LTD"},
			{"a folder", TransactionQuery{FolderID: f.ID}, "feb.pdf:0:RENT FEBRUARY"},
			{"nothing", TransactionQuery{Text: "zzz"}, ""},
		} {
			if got := found(tt.q); got != tt.want {
				t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
			}
		}
		// Labels forgotten (a correction), then the document deleted.
		if err := s.SetLabels(ctx, jan, nil); err != nil {
			t.Fatal(err)
		}
		if got := found(TransactionQuery{}); got != "feb.pdf:0:RENT FEBRUARY" {
			t.Errorf("after jan's labels were forgotten: %q", got)
		}
		if err := s.DeleteDocument(ctx, feb); err != nil {
			t.Fatal(err)
		}
		var left int
		if err := s.r.QueryRowContext(ctx, "SELECT count(*) FROM transaction_rows WHERE document_id = ?", feb).Scan(&left); err != nil || left != 0 {
			t.Errorf("a deleted document leaves %d rows (%v)", left, err)
		}
	})
}
