package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// DocumentQuery selects and orders a page of an account's documents (GET
// /api/v1/documents). Its zero value, with a Limit, is the newest first.
type DocumentQuery struct {
	Limit int
	// Before is the last document of the previous page ("" for the first).
	Before string
	// Text: every word must be found in the file's name, the statement's
	// account (with or without its spaces and dashes), bank or holder, or
	// the name of a folder the document is in; letters of either case
	// alike.
	Text string
	// Status is processing, failed, or a converted document's
	// reconciliation (ok, mismatch, unverified, no_transactions).
	Status string
	// FolderID keeps the documents in that folder; NoFolder those in none.
	FolderID string
	NoFolder bool
	// From and To (YYYY-MM-DD, either may be "") keep the documents whose
	// statement period meets them; a document whose period is not known
	// counts by its upload's day.
	From, To string
	// Sort is newest (""), oldest, name or result (the failed and
	// mismatched first, the reconciled last).
	Sort string
}

// QueryStatuses are the statuses DocumentQuery.Status takes.
var QueryStatuses = []string{StatusProcessing, StatusFailed, "ok", "mismatch", "unverified", "no_transactions"}

// QuerySorts are the orders DocumentQuery.Sort takes.
var QuerySorts = []string{"newest", "oldest", "name", "result"}

// resultRank orders documents by what needs a person's eye first.
const resultRank = `CASE WHEN status = 'failed' THEN 0 WHEN status = 'processing' THEN 2 ELSE
	CASE coalesce(edited_reconciliation, reconciliation, '') WHEN 'mismatch' THEN 1 WHEN 'no_transactions' THEN 4 WHEN 'ok' THEN 5 ELSE 3 END END`

// sortKeys is each order's leading key (before created_at and id) and
// whether created_at and id then run newest first.
var sortKeys = map[string]struct {
	key  string
	desc bool
}{
	"":       {"''", true},
	"newest": {"''", true},
	"oldest": {"''", false},
	"name":   {"lower(original_name)", true},
	"result": {resultRank, true},
}

// SearchDocuments is a page of an account's documents as q selects and
// orders them; next is the Before of the following page, "" when there is
// none. A Before that is not one of the account's documents is
// ErrNotFound.
func (s *Store) SearchDocuments(ctx context.Context, accountID int64, q DocumentQuery) (docs []Document, next string, err error) {
	order, ok := sortKeys[q.Sort]
	if !ok {
		return nil, "", fmt.Errorf("list documents: sort %q", q.Sort)
	}
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, "", fmt.Errorf("list documents: %w", err)
	}
	defer tx.Rollback()
	where := []string{"account_id = ?", "deleted_at IS NULL"}
	args := []any{accountID}
	cmp, dir := "<", "DESC"
	if !order.desc {
		cmp, dir = ">", "ASC"
	}
	if q.Before != "" {
		var key any
		var created string
		err := tx.QueryRowContext(ctx, "SELECT "+order.key+", created_at FROM documents WHERE id = ? AND account_id = ? AND deleted_at IS NULL",
			q.Before, accountID).Scan(&key, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, "", fmt.Errorf("document %s: %w", q.Before, ErrNotFound)
		}
		if err != nil {
			return nil, "", fmt.Errorf("list documents: %w", err)
		}
		where = append(where, "("+order.key+" > ? OR ("+order.key+" = ? AND (created_at "+cmp+" ? OR (created_at = ? AND id "+cmp+" ?))))")
		args = append(args, key, key, created, created, q.Before)
	}
	for _, w := range searchWords(q.Text) {
		like := "%" + likeEscape(w) + "%"
		bare := "%" + likeEscape(bareAccount(w)) + "%"
		where = append(where, `(coalesce(search_text, '') LIKE ? ESCAPE '\' OR coalesce(search_text, '') LIKE ? ESCAPE '\'
			OR lower(original_name) LIKE ? ESCAPE '\'
			OR EXISTS (SELECT 1 FROM folder_documents fd JOIN folders f ON f.id = fd.folder_id
				WHERE fd.document_id = documents.id AND lower(f.name) LIKE ? ESCAPE '\'))`)
		args = append(args, like, bare, like, like)
	}
	switch q.Status {
	case "":
	case StatusProcessing, StatusFailed:
		where = append(where, "status = ?")
		args = append(args, q.Status)
	default:
		where = append(where, "status = ? AND coalesce(nullif(coalesce(edited_reconciliation, reconciliation), ''), 'unverified') = ?")
		args = append(args, StatusCompleted, q.Status)
	}
	switch {
	case q.NoFolder:
		where = append(where, "NOT EXISTS (SELECT 1 FROM folder_documents fd WHERE fd.document_id = documents.id)")
	case q.FolderID != "":
		where = append(where, "EXISTS (SELECT 1 FROM folder_documents fd WHERE fd.document_id = documents.id AND fd.folder_id = ?)")
		args = append(args, q.FolderID)
	}
	if q.From != "" {
		where = append(where, "coalesce(period_end, substr(created_at, 1, 10)) >= ?")
		args = append(args, q.From)
	}
	if q.To != "" {
		where = append(where, "coalesce(period_start, substr(created_at, 1, 10)) <= ?")
		args = append(args, q.To)
	}
	args = append(args, q.Limit+1)
	lead := order.key + ", "
	if order.key == "''" {
		lead = "" // PostgreSQL orders by no constant
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+documentColumns+" FROM documents WHERE "+strings.Join(where, " AND ")+
		" ORDER BY "+lead+"created_at "+dir+", id "+dir+" LIMIT ?", args...)
	if err != nil {
		return nil, "", fmt.Errorf("list documents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		d, err := scanDocument(rows)
		if err != nil {
			return nil, "", fmt.Errorf("list documents: %w", err)
		}
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, "", fmt.Errorf("list documents: %w", err)
	}
	if len(docs) > q.Limit {
		docs = docs[:q.Limit]
		next = docs[q.Limit-1].ID
	}
	return docs, next, nil
}

// searchWords are a search's words, lower-cased, at most eight.
func searchWords(s string) []string {
	ws := strings.Fields(strings.ToLower(s))
	if len(ws) > 8 {
		ws = ws[:8]
	}
	return ws
}

// bareAccount is s without the spaces, dashes, dots and slashes an account
// number is printed with.
func bareAccount(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || strings.ContainsRune("-./", r) {
			return -1
		}
		return r
	}, s)
}

// likeEscape makes s match itself in a LIKE pattern with ESCAPE '\'.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// DocumentLabels is what a converted document's statement names, as
// served (corrections included), for listing and searching documents.
type DocumentLabels struct {
	// Account is number and currency, each account of a statement that
	// holds several, by commas.
	Account string
	Bank    string
	Holder  string
	// PeriodStart and PeriodEnd are YYYY-MM-DD, "" when not known.
	PeriodStart, PeriodEnd string
	// Rows are the statement's transactions, to find them by.
	Rows []TransactionRow
}

// TransactionRow is one transaction of a converted document, as served.
type TransactionRow struct {
	// Date is YYYY-MM-DD; Amount the signed amount in hundredths (money
	// out negative); Balance the balance after it, as decimal text.
	Date        string
	Amount      int64
	Balance     string
	Description string
	// Account is the account's number (and currency) it belongs to.
	Account string
}

// TransactionQuery finds transactions of an office; zero fields do not
// filter.
type TransactionQuery struct {
	AccountID int64
	// Text: every word is in the description or the account.
	Text string
	// Account: the account's number holds it (spaces, dashes, dots and
	// slashes ignored).
	Account string
	// Min and Max bound the amount's size, in hundredths, either way.
	Min, Max *int64
	// From and To bound the date, YYYY-MM-DD, both included.
	From, To string
	// FolderID keeps the transactions of the folder's documents (those
	// set aside too).
	FolderID string
	Limit    int
}

// TransactionHit is a transaction found, with its document.
type TransactionHit struct {
	DocumentID, OriginalName string
	// Row is the transaction's place in its document, from 0.
	Row int
	TransactionRow
}

// SearchTransactions finds an office's transactions, newest first; it
// reads the rows SetLabels wrote, by the indexes on the office and the
// date or the amount.
func (s *Store) SearchTransactions(ctx context.Context, q TransactionQuery) ([]TransactionHit, error) {
	if q.Limit <= 0 || q.Limit > 500 {
		q.Limit = 200
	}
	where, args := "t.account_id = ? AND d.deleted_at IS NULL", []any{q.AccountID}
	for _, w := range searchWords(q.Text) {
		where += ` AND t.words LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscape(w)+"%")
	}
	if a := strings.ToLower(bareAccount(q.Account)); a != "" {
		where += ` AND t.words LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscape(a)+"%")
	}
	if q.Min != nil || q.Max != nil {
		lo, hi := int64(0), int64(1)<<62
		if q.Min != nil {
			lo = *q.Min
		}
		if q.Max != nil {
			hi = *q.Max
		}
		where += " AND (t.amount BETWEEN ? AND ? OR t.amount BETWEEN ? AND ?)"
		args = append(args, lo, hi, -hi, -lo)
	}
	if q.From != "" {
		where += " AND t.date >= ?"
		args = append(args, q.From)
	}
	if q.To != "" {
		where += " AND t.date <= ?"
		args = append(args, q.To)
	}
	if q.FolderID != "" {
		where += " AND EXISTS (SELECT 1 FROM folder_documents fd WHERE fd.folder_id = ? AND fd.document_id = t.document_id)"
		args = append(args, q.FolderID)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT t.document_id, d.original_name, t.seq, t.date, t.amount, t.balance, t.description, t.account
		FROM transaction_rows t JOIN documents d ON d.id = t.document_id WHERE `+where+`
		ORDER BY t.date DESC, t.document_id, t.seq LIMIT `+strconv.Itoa(q.Limit), args...)
	if err != nil {
		return nil, fmt.Errorf("search transactions: %w", err)
	}
	defer rows.Close()
	var out []TransactionHit
	for rows.Next() {
		var h TransactionHit
		if err := rows.Scan(&h.DocumentID, &h.OriginalName, &h.Row, &h.Date, &h.Amount, &h.Balance, &h.Description, &h.Account); err != nil {
			return nil, fmt.Errorf("search transactions: %w", err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search transactions: %w", err)
	}
	return out, nil
}

// SetLabels records what a document's statement names; nil forgets it,
// to be read again (after corrections).
func (s *Store) SetLabels(ctx context.Context, id string, l *DocumentLabels) error {
	var account, bank, holder, start, end, text any
	if l != nil {
		account, bank, holder = l.Account, nullText(l.Bank), nullText(l.Holder)
		start, end = nullText(l.PeriodStart), nullText(l.PeriodEnd)
		words := strings.ToLower(strings.Join([]string{l.Account, bareAccount(l.Account), l.Bank, l.Holder}, " | "))
		text = words
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("labels of %s: %w", id, storageErr(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE documents SET account_label = ?, bank = ?, holder = ?, period_start = ?, period_end = ?, search_text = ?
		WHERE id = ?`, account, bank, holder, start, end, text, id); err != nil {
		return fmt.Errorf("labels of %s: %w", id, storageErr(err))
	}
	// The rows are written with the labels and forgotten with them.
	if _, err := tx.ExecContext(ctx, "DELETE FROM transaction_rows WHERE document_id = ?", id); err != nil {
		return fmt.Errorf("rows of %s: %w", id, storageErr(err))
	}
	if l != nil {
		for i, r := range l.Rows {
			words := strings.ToLower(r.Description + " | " + r.Account + " | " + bareAccount(r.Account))
			if _, err := tx.ExecContext(ctx, `INSERT INTO transaction_rows (document_id, seq, account_id, date, amount, balance, description, words, account)
				SELECT id, ?, account_id, ?, ?, ?, ?, ?, ? FROM documents WHERE id = ?`, i, r.Date, r.Amount, r.Balance, r.Description, words, r.Account, id); err != nil {
				return fmt.Errorf("rows of %s: %w", id, storageErr(err))
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("labels of %s: %w", id, storageErr(err))
	}
	return nil
}

// Labels are the labels of an account's documents that have them
// (SetLabels), by document.
func (s *Store) Labels(ctx context.Context, accountID int64) (map[string]DocumentLabels, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, account_label, coalesce(bank, ''), coalesce(holder, ''), coalesce(period_start, ''), coalesce(period_end, '')
		FROM documents WHERE account_id = ? AND account_label IS NOT NULL AND deleted_at IS NULL`, accountID)
	if err != nil {
		return nil, fmt.Errorf("document labels: %w", err)
	}
	defer rows.Close()
	out := map[string]DocumentLabels{}
	for rows.Next() {
		var id string
		var l DocumentLabels
		if err := rows.Scan(&id, &l.Account, &l.Bank, &l.Holder, &l.PeriodStart, &l.PeriodEnd); err != nil {
			return nil, fmt.Errorf("document labels: %w", err)
		}
		out[id] = l
	}
	return out, rows.Err()
}
