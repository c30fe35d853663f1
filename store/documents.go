package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"passbook/quota"
)

// Document states, as the API shows them.
const (
	StatusProcessing = "processing"
	StatusCompleted  = "completed"
	StatusFailed     = "failed"
)

// QuotaError says an upload was refused for quota, and when it resets.
type QuotaError struct {
	Usage quota.Usage
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("%s: %d of %d pages used this %s", quota.ErrExceeded, e.Usage.Used, e.Usage.Limit, e.Usage.Period)
}

// Unwrap makes errors.Is(err, quota.ErrExceeded) hold.
func (e *QuotaError) Unwrap() error { return quota.ErrExceeded }

// NewDocument is an accepted upload.
type NewDocument struct {
	// ID is the file_id to give it; empty makes a new one. The server picks
	// it first when it must remember something under it (a password).
	ID           string
	AccountID    int64
	OriginalName string
	Kind         string
	PageCount    int
	Content      []byte
	// Encrypted says the PDF needs a password. The password itself never
	// reaches the data file: the server keeps it in memory.
	Encrypted bool
	// IdempotencyKey, when set, names the upload for 24 hours: the same key
	// from the same account gets this document back (an *IdempotentError).
	IdempotencyKey string
	// FolderID, when set, puts the document in that folder of the account
	// in the same transaction (ErrNoFolder when there is none,
	// ErrFolderFull when it has no room).
	FolderID string
	// MemberID is the member who uploaded it; 0 for none (a link's client).
	MemberID int64
	// LinkID names the client upload link it came by: the link must be
	// live and for FolderID, and its page limit is charged in the same
	// transaction (ErrExpired, ErrLinkFull).
	LinkID string
}

// IdempotencyWindow is how long an upload's Idempotency-Key is remembered.
const IdempotencyWindow = 24 * time.Hour

// IdempotentError says an upload repeats an earlier one's Idempotency-Key;
// Document is the earlier upload.
type IdempotentError struct {
	Document Document
}

func (e *IdempotentError) Error() string {
	return "upload repeats the idempotency key of " + e.Document.ID
}

// Document is an upload and what became of it.
type Document struct {
	ID               string
	AccountID        int64
	OriginalName     string
	Kind             string
	PageCount        int
	Size             int64
	Status           string
	PagesDone        int
	TransactionCount int
	ErrorCode        string
	Error            string
	CreatedAt        time.Time
	FinishedAt       *time.Time
	// Reconciliation is the status of the balance check of the served
	// result (the edited one when there is one); "" until completed.
	Reconciliation string
	// EditedAt is when a person last saved corrected transactions; nil
	// while the original result is served.
	EditedAt *time.Time
}

// Usage reads an account's standing in its current quota period.
func (s *Store) Usage(ctx context.Context, accountID int64) (quota.Usage, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return quota.Usage{}, err
	}
	defer tx.Rollback()
	return s.usage(ctx, tx, accountID, false)
}

// usage reads an account's standing; lock holds the account's row until tx
// ends (on PostgreSQL: SQLite's one writer holds the whole file), so that
// uploads of one account from any number of nodes are charged one at a
// time against what the one before left.
func (s *Store) usage(ctx context.Context, tx *tx, accountID int64, lock bool) (quota.Usage, error) {
	q := "SELECT " + accountColumns + " FROM accounts WHERE id = ?"
	if lock {
		q += s.d.forUpdate()
	}
	a, err := scanAccount(tx.QueryRowContext(ctx, q, accountID))
	if err != nil {
		return quota.Usage{}, fmt.Errorf("usage of account %d: %w", accountID, err)
	}
	start, end := a.Plan.Window(s.Now(), s.Loc)
	var used int
	err = tx.QueryRowContext(ctx, `SELECT coalesce(sum(quota_pages), 0) FROM usage
		WHERE account_id = ? AND period_start = ? AND refunded_at IS NULL`, accountID, formatTime(start)).Scan(&used)
	if err != nil {
		return quota.Usage{}, fmt.Errorf("usage of account %d: %w", accountID, err)
	}
	return quota.Usage{Used: used, Limit: a.Plan.Limit(), Period: a.Plan.Period(), Start: start.UTC(), ResetsAt: end.UTC(), Credits: a.Credits}, nil
}

// CreateDocument stores an upload, charges its pages and queues its job, in
// one transaction: the quota check and the charge cannot be split by a
// concurrent upload, on this node or another (the account's row is locked
// first, and the Idempotency-Key is looked up under that lock). A refused upload (a *QuotaError) charges nothing.
// A disk that is full gives an error that wraps ErrFull.
func (s *Store) CreateDocument(ctx context.Context, nd NewDocument) (_ Document, err error) {
	defer func() { err = storageErr(err) }()
	id := nd.ID
	if id == "" {
		if id, err = NewFileID(); err != nil {
			return Document{}, err
		}
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Document{}, fmt.Errorf("create document: %w", err)
	}
	defer tx.Rollback()
	u, err := s.usage(ctx, tx, nd.AccountID, true)
	if err != nil {
		return Document{}, err
	}
	if nd.IdempotencyKey != "" {
		if prev, err := s.idempotent(ctx, tx, nd.AccountID, nd.IdempotencyKey); err == nil {
			return Document{}, &IdempotentError{Document: prev}
		} else if !errors.Is(err, ErrNotFound) {
			return Document{}, err
		}
	}
	fromQuota, fromCredits, err := quota.Split(nd.PageCount, u.Used, u.Limit, u.Credits)
	if err != nil {
		return Document{}, &QuotaError{Usage: u}
	}
	now := s.Now()
	stamp := formatTime(now)
	var member, link any
	if nd.MemberID != 0 {
		member = nd.MemberID
	}
	if nd.LinkID != "" {
		link = nd.LinkID
		if err := s.chargeLink(ctx, tx, nd.LinkID, nd.AccountID, nd.FolderID, nd.PageCount); err != nil {
			return Document{}, err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO documents
		(id, account_id, original_name, kind, page_count, size, content, status, created_at, member_id, link_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, nd.AccountID, nd.OriginalName, nd.Kind, nd.PageCount, len(nd.Content), nd.Content, StatusProcessing, stamp, member, link); err != nil {
		return Document{}, fmt.Errorf("insert document: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO usage
		(account_id, document_id, period_start, quota_pages, credit_pages, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		nd.AccountID, id, formatTime(u.Start), fromQuota, fromCredits, stamp); err != nil {
		return Document{}, fmt.Errorf("charge quota: %w", err)
	}
	if fromCredits > 0 {
		if _, err := tx.ExecContext(ctx, "UPDATE accounts SET credits = credits - ? WHERE id = ?", fromCredits, nd.AccountID); err != nil {
			return Document{}, fmt.Errorf("spend credits: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO jobs (document_id, state, encrypted, queued_at) VALUES (?, 'queued', ?, ?)",
		id, nd.Encrypted, stamp); err != nil {
		return Document{}, fmt.Errorf("queue job: %w", err)
	}
	if nd.FolderID != "" {
		account, err := s.lockFolder(ctx, tx, nd.FolderID)
		if err != nil {
			return Document{}, err
		}
		if account != nd.AccountID {
			return Document{}, fmt.Errorf("folder %s: %w", nd.FolderID, ErrNoFolder)
		}
		if err := addToFolder(ctx, tx, nd.FolderID, id, stamp); err != nil {
			return Document{}, err
		}
	}
	if nd.IdempotencyKey != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO idempotency_keys (account_id, key, document_id, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (account_id, key) DO UPDATE SET document_id = excluded.document_id, created_at = excluded.created_at`,
			nd.AccountID, nd.IdempotencyKey, id, stamp); err != nil {
			return Document{}, fmt.Errorf("record idempotency key: %w", err)
		}
	}
	// The bytes' SHA-256, so that the same bytes uploaded again can be
	// named (DocumentBySHA256).
	if _, err := tx.ExecContext(ctx, "UPDATE documents SET content_sha256 = ? WHERE id = ?", contentSHA256(nd.Content), id); err != nil {
		return Document{}, fmt.Errorf("record the upload's sha256: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Document{}, fmt.Errorf("create document: %w", err)
	}
	return Document{ID: id, AccountID: nd.AccountID, OriginalName: nd.OriginalName, Kind: nd.Kind,
		PageCount: nd.PageCount, Size: int64(len(nd.Content)), Status: StatusProcessing, CreatedAt: now.UTC()}, nil
}

// idempotent finds the document an account uploaded under key within the
// last IdempotencyWindow; ErrNotFound when there is none.
func (s *Store) idempotent(ctx context.Context, tx *tx, accountID int64, key string) (Document, error) {
	var id string
	err := tx.QueryRowContext(ctx, "SELECT document_id FROM idempotency_keys WHERE account_id = ? AND key = ? AND created_at > ?",
		accountID, key, formatTime(s.Now().Add(-IdempotencyWindow))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, fmt.Errorf("idempotency key: %w", ErrNotFound)
	}
	if err != nil {
		return Document{}, fmt.Errorf("idempotency key: %w", err)
	}
	d, err := scanDocument(tx.QueryRowContext(ctx, "SELECT "+documentColumns+" FROM documents WHERE id = ? AND deleted_at IS NULL", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, fmt.Errorf("idempotency key: document %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Document{}, fmt.Errorf("idempotency key: document %s: %w", id, err)
	}
	return d, nil
}

// Idempotent finds the document an account uploaded under an
// Idempotency-Key within the last IdempotencyWindow; ErrNotFound when none.
func (s *Store) Idempotent(ctx context.Context, accountID int64, key string) (Document, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Document{}, err
	}
	defer tx.Rollback()
	return s.idempotent(ctx, tx, accountID, key)
}

const documentColumns = `id, account_id, original_name, kind, page_count, size, status, pages_done,
	coalesce(edited_count, transaction_count, 0), coalesce(error_code, ''), coalesce(error, ''), created_at, finished_at,
	coalesce(edited_reconciliation, reconciliation, ''), edited_at`

// Document reads a document (not its bytes or result).
func (s *Store) Document(ctx context.Context, id string) (Document, error) {
	d, err := scanDocument(s.stmts.document.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, fmt.Errorf("document %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Document{}, fmt.Errorf("document %s: %w", id, err)
	}
	return d, nil
}

// Progress is what GET /api/v1/status shows of a document. It is read
// from columns the job's end writes (never from the stored result), and no
// more of them: status is what clients poll, every 2 seconds each.
type Progress struct {
	ID               string
	AccountID        int64
	Status           string
	PageCount        int
	PagesDone        int
	TransactionCount int
	ErrorCode        string
	Error            string
}

const progressSQL = `SELECT id, account_id, status, page_count, pages_done, coalesce(edited_count, transaction_count, 0),
	coalesce(error_code, ''), coalesce(error, '') FROM documents WHERE id = ? AND deleted_at IS NULL`

// Progress reads a document's status; ErrNotFound when there is none. A
// document polled again, unchanged, is answered from memory (statusCache).
func (s *Store) Progress(ctx context.Context, id string) (Progress, error) {
	p, ok, gen := s.status.get(id)
	if ok {
		return p, nil
	}
	err := s.stmts.status.QueryRowContext(ctx, id).Scan(&p.ID, &p.AccountID, &p.Status, &p.PageCount, &p.PagesDone,
		&p.TransactionCount, &p.ErrorCode, &p.Error)
	if errors.Is(err, sql.ErrNoRows) {
		return Progress{}, fmt.Errorf("document %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Progress{}, fmt.Errorf("document %s: %w", id, err)
	}
	s.status.put(p, gen)
	return p, nil
}

// scanDocument reads documentColumns, and into extra any columns the query
// selects after them.
func scanDocument(row interface{ Scan(...any) error }, extra ...any) (Document, error) {
	var d Document
	var created string
	var finished, edited sql.NullString
	err := row.Scan(append([]any{&d.ID, &d.AccountID, &d.OriginalName, &d.Kind, &d.PageCount, &d.Size, &d.Status, &d.PagesDone,
		&d.TransactionCount, &d.ErrorCode, &d.Error, &created, &finished, &d.Reconciliation, &edited}, extra...)...)
	if err != nil {
		return Document{}, err
	}
	d.CreatedAt = parseTime(created)
	d.FinishedAt = parseNullTime(finished)
	d.EditedAt = parseNullTime(edited)
	return d, nil
}

// Result reads a completed document's result, as the worker encoded it.
func (s *Store) Result(ctx context.Context, id string) ([]byte, error) {
	var res []byte
	err := s.r.QueryRowContext(ctx, "SELECT result FROM documents WHERE id = ? AND status = ? AND deleted_at IS NULL", id, StatusCompleted).Scan(&res)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("result of %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("result of %s: %w", id, err)
	}
	return res, nil
}

// Job is a claimed conversion.
type Job struct {
	DocumentID string
	Kind       string
	Content    []byte
	// Encrypted says the PDF needs the password the server holds in memory.
	Encrypted bool
	// Password is only ever set for a job queued before passwords left the
	// data file (migration 0005 wipes them, so in practice never).
	Password string
	// Attempts counts earlier runs whose converter crashed (RetryJob); a
	// crash of the whole server counts nothing.
	Attempts int
	// Claim names this claim of the job (the node and a random part): only
	// its holder can renew, end or hand back the job, so a node whose
	// lease ran out, and whose job another node took over, changes nothing.
	Claim string
	// TakenOver says the job was running on a node whose lease ran out.
	TakenOver bool
}

// pickJob is the job ClaimJob takes next, with its state. On PostgreSQL
// FOR UPDATE SKIP LOCKED locks it until the claim commits, and nodes
// claiming at once each take a different job without waiting for one
// another; SQLite's one writer transaction holds the whole file. seq and
// rowid keep the order jobs were queued in.
func (d dialect) pickJob() string {
	q := `SELECT j.document_id, j.state FROM jobs j JOIN documents d ON d.id = j.document_id
		WHERE j.state = 'queued' OR (j.state = 'running' AND j.lease_until < ?)
		ORDER BY (SELECT count(*) FROM jobs r JOIN documents rd ON rd.id = r.document_id
			WHERE r.state = 'running' AND r.lease_until >= ? AND rd.account_id = d.account_id), j.queued_at, `
	if d == postgresDB {
		return q + "j.seq LIMIT 1 FOR UPDATE OF j SKIP LOCKED"
	}
	return q + "j.rowid LIMIT 1"
}

// ClaimJob takes a queued job, or a running one whose lease ran out (its
// node died), and marks it running under a lease of s.Lease; ErrNoJob when
// there is none. It is fair between accounts: the job comes from the
// account with the fewest jobs running, the oldest of its jobs first, so
// one account's batch cannot hold every worker while another account waits.
func (s *Store) ClaimJob(ctx context.Context) (Job, error) {
	claim, err := randomString(s.node+"/", 10)
	if err != nil {
		return Job{}, err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return Job{}, fmt.Errorf("claim job: %w", err)
	}
	defer tx.Rollback()
	now := s.Now()
	stamp := formatTime(now)
	j := Job{Claim: claim}
	var state string
	err = tx.QueryRowContext(ctx, s.d.pickJob(), stamp, stamp).Scan(&j.DocumentID, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, ErrNoJob
	}
	if err != nil {
		return Job{}, fmt.Errorf("claim job: %w", err)
	}
	j.TakenOver = state == "running"
	if err := tx.QueryRowContext(ctx, `UPDATE jobs SET state = 'running', claimed_at = ?, lease_until = ?, claim = ?
		WHERE document_id = ? RETURNING encrypted, password, attempts`,
		stamp, formatTime(now.Add(s.Lease)), claim, j.DocumentID).Scan(&j.Encrypted, &j.Password, &j.Attempts); err != nil {
		return Job{}, fmt.Errorf("claim job %s: %w", j.DocumentID, err)
	}
	if err := tx.QueryRowContext(ctx, "SELECT kind, content FROM documents WHERE id = ?", j.DocumentID).Scan(&j.Kind, &j.Content); err != nil {
		return Job{}, fmt.Errorf("claim job %s: %w", j.DocumentID, err)
	}
	if err := tx.Commit(); err != nil {
		return Job{}, fmt.Errorf("claim job: %w", err)
	}
	return j, nil
}

// RenewLease extends a running job's lease by s.Lease from now. ErrNotFound
// says the job is no longer this claim's: its lease ran out and another
// node took it over, or the document was deleted; its worker should stop.
func (s *Store) RenewLease(ctx context.Context, job Job) error {
	res, err := s.w.ExecContext(ctx, "UPDATE jobs SET lease_until = ? WHERE document_id = ? AND claim = ? AND state = 'running'",
		formatTime(s.Now().Add(s.Lease)), job.DocumentID, job.Claim)
	if err != nil {
		return fmt.Errorf("renew the lease of %s: %w", job.DocumentID, storageErr(err))
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("renew the lease of %s: no longer this claim's: %w", job.DocumentID, ErrNotFound)
	}
	return nil
}

// SetProgress records how many pages of a running job are done.
func (s *Store) SetProgress(ctx context.Context, id string, pagesDone int) error {
	err := s.statusWrite(ctx, id, func(tx *tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE documents SET pages_done = ? WHERE id = ? AND status = ?", pagesDone, id, StatusProcessing)
		return err
	})
	if err != nil {
		return fmt.Errorf("progress of %s: %w", id, err)
	}
	return nil
}

// statusWrite runs write in a transaction that changes what GET /status
// shows of document id: it tells the other nodes (PostgreSQL) and drops
// the status this node keeps of id.
func (s *Store) statusWrite(ctx context.Context, id string, write func(*tx) error) error {
	defer s.changed(id)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := write(tx); err != nil {
		return err
	}
	if err := s.notify(ctx, tx, id); err != nil {
		return err
	}
	return tx.Commit()
}

// CompleteJob stores a job's result with what listings and GET /status
// show of it (the number of transactions and the reconciliation status),
// and ends the job. ErrNotFound says the job is no longer this claim's.
// A disk that is full gives an error that wraps ErrFull; the job is then
// still running, and the call can be repeated.
func (s *Store) CompleteJob(ctx context.Context, job Job, transactionCount int, reconciliation string, result []byte) (err error) {
	defer func() { err = storageErr(err) }()
	err = s.statusWrite(ctx, job.DocumentID, func(tx *tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE documents SET status = ?, pages_done = page_count, transaction_count = ?, reconciliation = ?,
			result = ?, finished_at = ?
			WHERE id = ? AND status = ?`, StatusCompleted, transactionCount, reconciliation, string(result), s.stamp(), job.DocumentID, StatusProcessing)
		if err != nil {
			return err
		}
		return endJob(ctx, tx, res, job)
	})
	if err != nil {
		return fmt.Errorf("complete %s: %w", job.DocumentID, err)
	}
	return nil
}

// FailJob ends a job as failed with a reason, and refunds its pages: the
// period's quota by marking the charge refunded, credits by giving them back.
func (s *Store) FailJob(ctx context.Context, job Job, code, reason string) (err error) {
	defer func() { err = storageErr(err) }()
	id := job.DocumentID
	err = s.statusWrite(ctx, id, func(tx *tx) error {
		stamp := s.stamp()
		res, err := tx.ExecContext(ctx, `UPDATE documents SET status = ?, error_code = ?, error = ?, finished_at = ?
			WHERE id = ? AND status = ?`, StatusFailed, code, reason, stamp, id, StatusProcessing)
		if err != nil {
			return err
		}
		if err := endJob(ctx, tx, res, job); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET credits = credits +
			(SELECT credit_pages FROM usage WHERE document_id = ? AND refunded_at IS NULL)
			WHERE id = (SELECT account_id FROM usage WHERE document_id = ? AND refunded_at IS NULL)`, id, id); err != nil {
			return fmt.Errorf("refund credits: %w", err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE usage SET refunded_at = ? WHERE document_id = ? AND refunded_at IS NULL", stamp, id); err != nil {
			return fmt.Errorf("refund: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fail %s: %w", id, err)
	}
	return nil
}

// endJob checks a document moved out of processing and drops its job row,
// if the job is still this claim's. Both checks are ErrNotFound, and the
// caller's transaction then changes nothing. The document's row is written
// before the job's, in the order DeleteDocument takes them.
func endJob(ctx context.Context, tx *tx, res sql.Result, job Job) error {
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("document %s is not processing: %w", job.DocumentID, ErrNotFound)
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM jobs WHERE document_id = ? AND claim = ?", job.DocumentID, job.Claim)
	if err != nil {
		return fmt.Errorf("end job %s: %w", job.DocumentID, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("job %s is no longer this claim's (another node took it over): %w", job.DocumentID, ErrNotFound)
	}
	return nil
}

// ReleaseJob hands a running job back to the queue (at shutdown), without
// counting an attempt; it keeps its place.
func (s *Store) ReleaseJob(ctx context.Context, job Job) error {
	_, err := s.w.ExecContext(ctx, `UPDATE jobs SET state = 'queued', claimed_at = NULL, lease_until = NULL, claim = NULL
		WHERE document_id = ? AND claim = ? AND state = 'running'`, job.DocumentID, job.Claim)
	if err != nil {
		return fmt.Errorf("release job %s: %w", job.DocumentID, storageErr(err))
	}
	return nil
}

// Retryable says whether a failed document's failure may go another way
// when it is converted again: a limit met on a busy server, a crash, an
// interruption or a fault of the server's. A wrong password needs the
// file again with it, and a type, size or damage the converter judged
// from the bytes stays what it is.
func Retryable(code string) bool {
	switch code {
	case "conversion_limit", "converter_crashed", "interrupted", "conversion_failed":
		return true
	}
	return false
}

// ErrNotRetryable says a document is not failed, or failed in a way that
// converting it again cannot change (Retryable).
var ErrNotRetryable = errors.New("the document has not failed in a way that trying again can change")

// RetryDocument converts a failed document again: in one transaction it
// charges its pages as an upload does (a *QuotaError charges nothing),
// puts it back to processing and queues its job at the back. Its earlier
// charge stays refunded; the new one is its one charge.
func (s *Store) RetryDocument(ctx context.Context, id string) (err error) {
	defer func() { err = storageErr(err) }()
	return s.statusWrite(ctx, id, func(tx *tx) error {
		var accountID int64
		var pages int
		var status, code string
		err := tx.QueryRowContext(ctx, "SELECT account_id, page_count, status, coalesce(error_code, '') FROM documents WHERE id = ? AND deleted_at IS NULL",
			id).Scan(&accountID, &pages, &status, &code)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("retry %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("retry %s: %w", id, err)
		}
		u, err := s.usage(ctx, tx, accountID, true)
		if err != nil {
			return err
		}
		// Read again under the account's lock: two retries at once charge once.
		if err := tx.QueryRowContext(ctx, "SELECT status, coalesce(error_code, '') FROM documents WHERE id = ?", id).Scan(&status, &code); err != nil {
			return fmt.Errorf("retry %s: %w", id, err)
		}
		if status != StatusFailed || !Retryable(code) {
			return fmt.Errorf("retry %s (%s %s): %w", id, status, code, ErrNotRetryable)
		}
		fromQuota, fromCredits, err := quota.Split(pages, u.Used, u.Limit, u.Credits)
		if err != nil {
			return &QuotaError{Usage: u}
		}
		stamp := s.stamp()
		if _, err := tx.ExecContext(ctx, `UPDATE usage SET period_start = ?, quota_pages = ?, credit_pages = ?, created_at = ?, refunded_at = NULL
			WHERE document_id = ?`, formatTime(u.Start), fromQuota, fromCredits, stamp, id); err != nil {
			return fmt.Errorf("charge quota: %w", err)
		}
		if fromCredits > 0 {
			if _, err := tx.ExecContext(ctx, "UPDATE accounts SET credits = credits - ? WHERE id = ?", fromCredits, accountID); err != nil {
				return fmt.Errorf("spend credits: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE documents SET status = ?, error_code = NULL, error = NULL, finished_at = NULL, pages_done = 0
			WHERE id = ?`, StatusProcessing, id); err != nil {
			return fmt.Errorf("retry %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO jobs (document_id, state, queued_at) VALUES (?, 'queued', ?)", id, stamp); err != nil {
			return fmt.Errorf("queue job: %w", err)
		}
		return nil
	})
}

// RequeueJob hands a running job back to the queue at its back, without
// counting an attempt: its conversion ran out of wall clock while the
// machine was too busy to give it the CPU time it was allowed (issue 41
// point 10), which is not the document's fault. ErrNotFound says the job
// is no longer this claim's.
func (s *Store) RequeueJob(ctx context.Context, job Job) error {
	res, err := s.w.ExecContext(ctx, `UPDATE jobs SET state = 'queued', claimed_at = NULL, lease_until = NULL, claim = NULL, queued_at = ?
		WHERE document_id = ? AND claim = ? AND state = 'running'`, s.stamp(), job.DocumentID, job.Claim)
	if err != nil {
		return fmt.Errorf("requeue job %s: %w", job.DocumentID, storageErr(err))
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("requeue job %s: no longer this claim's: %w", job.DocumentID, ErrNotFound)
	}
	return nil
}

// ReleaseHeld hands back to the queue, in their places, every job this
// store's claims still hold: a node that stops calls it once its workers
// have ended, so that no job of a graceful stop waits out its lease (a
// worker's own release may have failed, or its outcome write given up at
// shutdown). It returns how many it released.
func (s *Store) ReleaseHeld(ctx context.Context) (int, error) {
	res, err := s.w.ExecContext(ctx, `UPDATE jobs SET state = 'queued', claimed_at = NULL, lease_until = NULL, claim = NULL
		WHERE state = 'running' AND substr(claim, 1, ?) = ?`, len(s.node)+1, s.node+"/")
	if err != nil {
		return 0, fmt.Errorf("release held jobs: %w", storageErr(err))
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// RetryJob hands a running job whose converter crashed back to the queue,
// at its back, and counts the attempt; it returns the attempts so far.
func (s *Store) RetryJob(ctx context.Context, job Job) (int, error) {
	var n int
	err := s.w.QueryRowContext(ctx, `UPDATE jobs SET state = 'queued', claimed_at = NULL, lease_until = NULL, claim = NULL,
		attempts = attempts + 1, queued_at = ?
		WHERE document_id = ? AND claim = ? AND state = 'running' RETURNING attempts`, s.stamp(), job.DocumentID, job.Claim).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("retry job %s: %w", job.DocumentID, ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("retry job %s: %w", job.DocumentID, storageErr(err))
	}
	return n, nil
}

// RequeueInterrupted puts back in the queue every job left running by a
// process that died, at the back of the queue and without counting an
// attempt: the server's death is not the document's fault. It is called at
// start-up, before any worker runs. On SQLite, whose data file one server
// owns, that is every running job; on PostgreSQL, where other nodes may be
// running theirs, only jobs whose lease ran out (which ClaimJob would take
// over anyway).
func (s *Store) RequeueInterrupted(ctx context.Context) (int, error) {
	q := "UPDATE jobs SET state = 'queued', claimed_at = NULL, lease_until = NULL, claim = NULL, queued_at = ? WHERE state = 'running'"
	args := []any{s.stamp()}
	if s.d == postgresDB {
		q += " AND lease_until < ?"
		args = append(args, s.stamp())
	}
	res, err := s.w.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("requeue jobs: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
