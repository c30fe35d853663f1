package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"passbook/quota"
)

// TestLeaseTakeover: a node that stops renewing a job's lease (it died)
// loses the job to another node once the lease runs out, and can then
// neither renew, end nor hand back the job; the page is charged once.
func TestLeaseTakeover(t *testing.T) {
	eachKind(t, func(t *testing.T, kind, loc string) {
		ctx := context.Background()
		dead, c := openAt(t, loc)
		alive, _ := openAt(t, loc)
		alive.Now = c.Now
		a := newAccount(t, dead, "l@example.com", quota.Business)
		d, err := upload(dead, a.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		old, err := dead.ClaimJob(ctx)
		if err != nil {
			t.Fatal(err)
		}
		c.Set(c.Now().Add(dead.Lease / 2))
		if err := dead.RenewLease(ctx, old); err != nil {
			t.Fatalf("renew: %v", err)
		}
		c.Set(c.Now().Add(dead.Lease - time.Second))
		if j, err := alive.ClaimJob(ctx); !errors.Is(err, ErrNoJob) {
			t.Fatalf("claim within the renewed lease = %q, %v; want ErrNoJob", j.DocumentID, err)
		}
		c.Set(c.Now().Add(2 * time.Second))
		taken, err := alive.ClaimJob(ctx)
		if err != nil || taken.DocumentID != d.ID || taken.Attempts != 0 || taken.Claim == old.Claim || !taken.TakenOver || old.TakenOver {
			t.Fatalf("claim after the lease ran out = %+v, %v; want %s, 0 attempts, a new claim", taken, err, d.ID)
		}
		for name, err := range map[string]error{
			"renew":    dead.RenewLease(ctx, old),
			"complete": dead.CompleteJob(ctx, old, 1, "ok", []byte(`{}`)),
			"fail":     dead.FailJob(ctx, old, "x", "stale"),
		} {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("%s by the node that lost the job: %v, want ErrNotFound", name, err)
			}
		}
		if _, err := dead.RetryJob(ctx, old); !errors.Is(err, ErrNotFound) {
			t.Errorf("retry by the node that lost the job: %v, want ErrNotFound", err)
		}
		if err := dead.ReleaseJob(ctx, old); err != nil {
			t.Fatal(err)
		}
		if doc, _ := alive.Document(ctx, d.ID); doc.Status != StatusProcessing {
			t.Fatalf("after the stale node's writes: %s, want processing", doc.Status)
		}
		if err := alive.CompleteJob(ctx, taken, 4, "ok", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		doc, _ := dead.Document(ctx, d.ID)
		var charges int
		if err := dead.r.QueryRow("SELECT count(*) FROM usage WHERE document_id = ? AND refunded_at IS NULL", d.ID).Scan(&charges); err != nil {
			t.Fatal(err)
		}
		if doc.Status != StatusCompleted || doc.TransactionCount != 4 || charges != 1 || used(t, dead, a.ID) != 1 {
			t.Errorf("document %s with %d transactions, %d charges, %d used; want completed, 4, 1, 1", doc.Status, doc.TransactionCount, charges, used(t, dead, a.ID))
		}
	})
}

// TestClaimsAreNeverShared has 8 workers on two stores (two nodes) claim
// 40 jobs at once: each job goes to exactly one of them.
func TestClaimsAreNeverShared(t *testing.T) {
	eachKind(t, func(t *testing.T, kind, loc string) {
		ctx := context.Background()
		nodes := [2]*Store{}
		nodes[0], _ = openAt(t, loc)
		nodes[1], _ = openAt(t, loc)
		var want []string
		for i := range 4 {
			a := newAccount(t, nodes[0], string(rune('a'+i))+"@example.com", quota.Enterprise)
			for range 10 {
				d, err := upload(nodes[0], a.ID, 1)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, d.ID)
			}
		}
		var mu sync.Mutex
		got := map[string]int{}
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for {
					j, err := nodes[w%2].ClaimJob(ctx)
					if errors.Is(err, ErrNoJob) {
						return
					}
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					got[j.DocumentID]++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		for _, id := range want {
			if got[id] != 1 {
				t.Errorf("job %s claimed %d times, want once", id, got[id])
			}
		}
		if len(got) != len(want) {
			t.Errorf("%d jobs claimed, want %d", len(got), len(want))
		}
	})
}

// TestReleaseHeldAndRequeue: a node that stops hands back every job its
// claims hold and none of another node's, on the same database; a job
// requeued because the machine was busy goes to the back of the queue
// without an attempt counted (issue 41 points 10 and 12).
func TestReleaseHeldAndRequeue(t *testing.T) {
	eachKind(t, func(t *testing.T, kind, loc string) {
		ctx := context.Background()
		stopping, c := openAt(t, loc)
		other, _ := openAt(t, loc)
		other.Now = c.Now
		a := newAccount(t, stopping, "h@example.com", quota.Business)
		var ids []string
		for range 4 {
			d, err := upload(stopping, a.ID, 1)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, d.ID)
		}
		mine := map[string]bool{}
		for range 2 {
			j, err := stopping.ClaimJob(ctx)
			if err != nil {
				t.Fatal(err)
			}
			mine[j.DocumentID] = true
		}
		theirs, err := other.ClaimJob(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n, err := stopping.ReleaseHeld(ctx)
		if err != nil || n != 2 {
			t.Fatalf("ReleaseHeld = %d, %v; want the stopping node's 2 jobs", n, err)
		}
		// Within every lease, the released jobs and the one never claimed
		// are there to claim, queued in their places; the other node's is not.
		got := map[string]bool{}
		for range 3 {
			j, err := other.ClaimJob(ctx)
			if err != nil {
				t.Fatalf("claim after the release: %v", err)
			}
			if j.TakenOver || j.DocumentID == theirs.DocumentID {
				t.Errorf("claimed %s (taken over %v): want a released or queued job", j.DocumentID, j.TakenOver)
			}
			got[j.DocumentID] = true
		}
		for id := range mine {
			if !got[id] {
				t.Errorf("the stopping node's job %s was not handed back", id)
			}
		}
		if j, err := other.ClaimJob(ctx); !errors.Is(err, ErrNoJob) {
			t.Errorf("a fourth claim = %s, %v; want ErrNoJob (the other node's job stays its own)", j.DocumentID, err)
		}
		// A busy requeue: to the back, no attempt counted; the claim that
		// lost the job cannot requeue it.
		if err := other.RequeueJob(ctx, theirs); err != nil {
			t.Fatal(err)
		}
		if err := other.RequeueJob(ctx, theirs); !errors.Is(err, ErrNotFound) {
			t.Errorf("a second requeue of the same claim: %v, want ErrNotFound", err)
		}
		again, err := other.ClaimJob(ctx)
		if err != nil || again.DocumentID != theirs.DocumentID || again.Attempts != 0 {
			t.Errorf("claim after the requeue = %+v, %v; want %s with 0 attempts", again, err, theirs.DocumentID)
		}
	})
}

// TestRetryDocument: a failed document is converted again once, charged
// again as an upload is (from credits when the quota is used up), on both
// stores; one that cannot go otherwise, or is not failed, is refused.
func TestRetryDocument(t *testing.T) {
	eachKind(t, func(t *testing.T, kind, loc string) {
		ctx := context.Background()
		s, _ := openAt(t, loc)
		a := newAccount(t, s, "r@example.com", quota.Free)
		fail := func(pages int, code string) Document {
			t.Helper()
			d, err := upload(s, a.ID, pages)
			if err != nil {
				t.Fatal(err)
			}
			j, err := s.ClaimJob(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.FailJob(ctx, j, code, "x"); err != nil {
				t.Fatal(err)
			}
			return d
		}
		limited := fail(3, "conversion_limit")
		locked := fail(1, "password_required")
		if got := used(t, s, a.ID); got != 0 {
			t.Fatalf("used after two failures: %d, want 0", got)
		}
		if err := s.RetryDocument(ctx, locked.ID); !errors.Is(err, ErrNotRetryable) {
			t.Errorf("retry of a password failure: %v, want ErrNotRetryable", err)
		}
		if err := s.RetryDocument(ctx, limited.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.RetryDocument(ctx, limited.ID); !errors.Is(err, ErrNotRetryable) {
			t.Errorf("a second retry while processing: %v, want ErrNotRetryable", err)
		}
		d, err := s.Document(ctx, limited.ID)
		if err != nil || d.Status != StatusProcessing || d.ErrorCode != "" || used(t, s, a.ID) != 3 {
			t.Fatalf("after the retry: %+v, %v, used %d; want processing, no error, 3 pages used", d, err, used(t, s, a.ID))
		}
		j, err := s.ClaimJob(ctx)
		if err != nil || j.DocumentID != limited.ID {
			t.Fatalf("the retry's job: %+v, %v", j, err)
		}
		// Past the day's five pages: refused, nothing charged.
		if err := s.FailJob(ctx, j, "converter_crashed", "x"); err != nil {
			t.Fatal(err)
		}
		big := fail(5, "conversion_limit")
		if err := s.RetryDocument(ctx, big.ID); err != nil {
			t.Fatal(err)
		}
		var qe *QuotaError
		if err := s.RetryDocument(ctx, limited.ID); !errors.As(err, &qe) {
			t.Errorf("a retry past the quota: %v, want a QuotaError", err)
		}
		if d, _ := s.Document(ctx, limited.ID); d.Status != StatusFailed || used(t, s, a.ID) != 5 {
			t.Errorf("after a refused retry: %s, used %d; want failed, 5", d.Status, used(t, s, a.ID))
		}
		if err := s.RetryDocument(ctx, "doc_none"); !errors.Is(err, ErrNotFound) {
			t.Errorf("retry of no document: %v, want ErrNotFound", err)
		}
	})
}
