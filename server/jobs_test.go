package server

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/source"
	"passbook/quota"
	"passbook/store"
)

// failsFirst fails its first n conversions with err, then converts.
type failsFirst struct {
	Converter
	err error
	n   atomic.Int32
}

func (f *failsFirst) Convert(ctx context.Context, data []byte, opts extract.Options) (*ledger.Result, error) {
	if f.n.Add(-1) >= 0 {
		return nil, f.err
	}
	return f.Converter.Convert(ctx, data, opts)
}

// TestBusyConversionIsQueuedAgain: a conversion that ran out of wall clock
// while the machine was busy (source.ErrBusy) is queued again, not failed,
// and completes, charged once (issue 41 point 10).
func TestBusyConversionIsQueuedAgain(t *testing.T) {
	busy := &failsFirst{err: source.ErrBusy}
	busy.n.Store(2)
	e := newEnv(t, true, func(_ *Config, c *Converter) { busy.Converter = *c; *c = busy })
	key := e.account("busy@example.com", quota.Free)
	_, m := e.upload(key, map[string][]byte{"file": sample})
	st := e.waitDone(key, m["file_id"].(string))
	if st["status"] != "completed" || st["transaction_count"] != 8.0 || busy.n.Load() >= 0 {
		t.Errorf("after two busy runs: %v (busy runs left %d); want completed with 8 transactions", st, busy.n.Load())
	}
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 1.0 {
		t.Errorf("quota %v, want the page charged once", q)
	}
}

// TestRetryFailedDocument: a document that failed on a limit says what
// happened, with no advice that cannot apply, and offers to be tried
// again; trying again charges its pages again and converts it. A document
// that cannot go otherwise (completed, or a wrong password) is refused,
// and another office's document is forbidden.
func TestRetryFailedDocument(t *testing.T) {
	limit := &failsFirst{err: source.ErrCPU}
	limit.n.Store(1)
	e := newEnv(t, true, func(_ *Config, c *Converter) { limit.Converter = *c; *c = limit })
	key := e.account("retry@example.com", quota.Free)
	other := e.account("other@example.com", quota.Free)
	_, m := e.upload(key, map[string][]byte{"file": sample})
	id := m["file_id"].(string)
	st := e.waitDone(key, id)
	msg, _ := st["error"].(string)
	if st["status"] != "failed" || st["error_code"] != "conversion_limit" || st["retryable"] != true || msg != source.ErrCPU.Error() ||
		strings.Contains(strings.ToLower(msg), "split") {
		t.Fatalf("status after the limit: %v; want failed, conversion_limit, retryable, and the limit's own words", st)
	}
	_, u, _ := e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 0.0 {
		t.Errorf("quota after the failure %v, want refunded", q)
	}
	_, list, _ := e.do("GET", "/api/v1/documents", key, nil, "")
	if docs := list["documents"].([]any); len(docs) != 1 || docs[0].(map[string]any)["retryable"] != true {
		t.Errorf("the list's failed document: %v, want retryable", docs)
	}
	resp, f, _ := e.do("POST", "/api/v1/documents/"+id+"/retry", other, nil, "")
	wantError(t, resp, f, 403, "forbidden")
	// Two at once: one is taken, the other refused; the page is charged once.
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i := range codes {
		wg.Go(func() {
			resp, _, _ := e.do("POST", "/api/v1/documents/"+id+"/retry", key, nil, "")
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	if !(codes[0] == 200 && codes[1] == 409 || codes[0] == 409 && codes[1] == 200) {
		t.Errorf("two retries at once answered %v, want one 200 and one 409", codes)
	}
	st = e.waitDone(key, id)
	if st["status"] != "completed" || st["transaction_count"] != 8.0 || st["retryable"] != nil || st["error"] != nil {
		t.Errorf("after trying again: %v, want completed with 8 transactions", st)
	}
	_, u, _ = e.do("GET", "/api/v1/user", key, nil, "")
	if q := u["quota"].(map[string]any); q["used"] != 1.0 {
		t.Errorf("quota after the retry %v, want the page charged once", q)
	}
	resp, f, _ = e.do("POST", "/api/v1/documents/"+id+"/retry", key, nil, "")
	wantError(t, resp, f, 409, "not_retryable")
	resp, f, _ = e.do("GET", "/api/v1/documents/"+id+"/retry", key, nil, "")
	wantError(t, resp, f, 405, "method_not_allowed")
}

// TestRetryIsChargedAsAnUpload: a retry past the quota is refused with
// 429 and changes nothing; a failure that needs the file again (a wrong
// password) is not retryable.
func TestRetryIsChargedAsAnUpload(t *testing.T) {
	fails := &failsFirst{err: source.ErrCrashed}
	fails.n.Store(100)
	e := newEnv(t, true, func(c *Config, conv *Converter) { c.MaxAttempts = 1; fails.Converter = *conv; *conv = fails })
	key := e.account("full@example.com", quota.Free)
	_, m := e.upload(key, map[string][]byte{"file": sample})
	id := m["file_id"].(string)
	if st := e.waitDone(key, id); st["error_code"] != "converter_crashed" || st["retryable"] != true {
		t.Fatalf("status %v, want converter_crashed and retryable", st)
	}
	fails.n.Store(0)
	for range 5 { // the day's five pages
		_, m := e.upload(key, map[string][]byte{"file": sample})
		e.waitDone(key, m["file_id"].(string))
	}
	resp, f, _ := e.do("POST", "/api/v1/documents/"+id+"/retry", key, nil, "")
	wantError(t, resp, f, 429, "quota_exceeded")
	if st := e.waitDone(key, id); st["status"] != "failed" {
		t.Errorf("after a refused retry: %v, want still failed", st)
	}
	if store.Retryable("password_required") || store.Retryable("unreadable_file") || !store.Retryable("conversion_limit") {
		t.Error("Retryable: want a limit retryable, a password or damaged file not")
	}
}

// blocks holds every conversion until its context ends, and counts the
// conversions under way.
type blocks struct {
	Converter
	running chan struct{}
}

func (b *blocks) Convert(ctx context.Context, data []byte, opts extract.Options) (*ledger.Result, error) {
	b.running <- struct{}{}
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestStopHandsBackEveryJob: a node that stops while converting hands
// every job it claimed back to the queue, in its place, at once: none
// waits out its lease (issue 41 point 12).
func TestStopHandsBackEveryJob(t *testing.T) {
	b := &blocks{running: make(chan struct{}, 8)}
	e := newEnv(t, false, func(_ *Config, c *Converter) { b.Converter = *c; *c = b })
	key := e.account("stop@example.com", quota.Business)
	ids := map[string]bool{}
	for range 3 {
		_, m := e.upload(key, map[string][]byte{"file": sample})
		ids[m["file_id"].(string)] = true
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- e.srv.RunWorkers(ctx) }()
	<-b.running // two workers (newEnv's Workers is the CPUs': at least one)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The clock stands still: a job still claimed would not be claimable.
	for range 3 {
		j, err := e.store.ClaimJob(context.Background())
		if err != nil || j.TakenOver || !ids[j.DocumentID] {
			t.Fatalf("claim after the stop = %+v, %v; want one of the three jobs, handed back", j, err)
		}
		delete(ids, j.DocumentID)
	}
	if _, err := e.store.ClaimJob(context.Background()); !errors.Is(err, store.ErrNoJob) {
		t.Errorf("a fourth claim: %v, want ErrNoJob", err)
	}
}
