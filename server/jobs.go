package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"passbook/extract"
	"passbook/extract/ledger"
	"passbook/extract/source"
	"passbook/store"
)

// RunWorkers runs cfg.Workers conversion workers until ctx is done, then
// waits for them: a conversion cut short by shutdown goes back to the queue.
// Jobs a crashed process left running are queued again first.
func (s *Server) RunWorkers(ctx context.Context) error {
	n, err := s.store.RequeueInterrupted(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		s.log.Info("resuming interrupted conversions", "jobs", n)
	}
	var wg sync.WaitGroup
	for range max(s.cfg.Workers, 1) {
		wg.Go(func() { s.work(ctx) })
	}
	if s.cfg.Retention > 0 {
		wg.Go(func() { s.retain(ctx, time.Hour) })
	}
	wg.Wait()
	// Whatever a worker could not hand back itself goes back now, so that
	// no job of a stopped node waits out its lease (issue 41 point 12).
	n, err = s.store.ReleaseHeld(context.WithoutCancel(ctx))
	if err != nil {
		s.log.Error("release this node's jobs", "err", err)
		return err
	}
	if n > 0 {
		s.log.Info("released the jobs this node held", "jobs", n)
	}
	return nil
}

func (s *Server) work(ctx context.Context) {
	s.workersUp.Add(1)
	defer s.workersUp.Add(-1)
	tick := time.NewTicker(s.cfg.PollInterval)
	defer tick.Stop()
	for ctx.Err() == nil {
		// The claim runs on a context shutdown does not cancel: cancelled
		// while its commit was under way, it could land unseen and leave
		// the job claimed until its lease ran out. A job claimed as the
		// shutdown began is handed back by runJob.
		job, err := s.store.ClaimJob(context.WithoutCancel(ctx))
		switch {
		case err == nil:
			s.runJob(ctx, job)
			continue
		case ctx.Err() != nil:
			return
		case !errors.Is(err, store.ErrNoJob):
			s.log.Error("claim job", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-tick.C:
		}
	}
}

// runJob converts one document and records the outcome. It renews the
// job's lease while it runs; should another node have taken the job over
// (this node's lease ran out) or the document have been deleted, it stops
// and records nothing. Only a shutdown leaves the job unfinished, handed
// back to the queue. A converter crash is
// retried at the back of the queue until MaxAttempts; outcome writes that
// fail (a full disk) are retried with backoff until they hold, so a job is
// never left claimed once space is freed.
func (s *Server) runJob(ctx context.Context, job store.Job) {
	log := s.log.With("file_id", job.DocumentID)
	if job.TakenOver {
		log.Warn("taking over a job whose node stopped renewing its lease")
	}
	// Bookkeeping must survive the shutdown that cancels the conversion.
	bg := context.WithoutCancel(ctx)
	convCtx, stopConv := context.WithCancel(ctx)
	var lost atomic.Bool
	leaseDone := make(chan struct{})
	go func() {
		defer close(leaseDone)
		s.keepLease(convCtx, log, job, func() { lost.Store(true); stopConv() })
	}()
	defer func() { stopConv(); <-leaseDone }()
	password, known := s.passwords.get(job.DocumentID)
	if job.Password != "" {
		password, known = job.Password, true
	}
	if job.Encrypted && !known {
		log.Info("password forgotten by a restart")
		s.record(ctx, log, "fail job", func() error {
			return s.store.FailJob(bg, job, "password_required",
				"The server restarted before the conversion ran, and PDF passwords are kept only in memory. Upload the file again with its password.")
		})
		return
	}
	start := time.Now()
	opts := extract.Options{
		Password: password,
		Progress: func(done, total int) {
			if err := s.store.SetProgress(bg, job.DocumentID, done); err != nil {
				log.Error("record progress", "err", err)
			}
		},
	}
	var raw []byte
	var transactions int
	var reconciliation string
	var err error
	if jc, ok := s.conv.(jsonConverter); ok {
		raw, transactions, reconciliation, err = jc.ConvertJSON(convCtx, job.Content, opts)
	} else {
		var res *ledger.Result
		if res, err = s.conv.Convert(convCtx, job.Content, opts); err == nil {
			raw, err = json.Marshal(res)
			transactions, reconciliation = len(res.Transactions), res.Statement.Reconciliation.Status
		}
	}
	if lost.Load() {
		log.Warn("conversion abandoned: the job was taken over by another node, or the document deleted")
		return
	}
	if ctx.Err() != nil && err != nil {
		if err := s.store.ReleaseJob(bg, job); err != nil {
			log.Error("release job", "err", err)
		}
		return
	}
	if errors.Is(err, source.ErrBusy) {
		// Not the document's fault: it goes to the back of the queue, to
		// run when the machine (or another node) has a processor for it.
		log.Warn("the machine was too busy to convert in time; queued again", "err", err)
		s.record(ctx, log, "requeue job", func() error { return s.store.RequeueJob(bg, job) })
		s.nudge()
		return
	}
	if errors.Is(err, source.ErrCrashed) && job.Attempts+1 < s.cfg.MaxAttempts {
		log.Warn("converter crashed; trying again later", "attempt", job.Attempts+1, "err", err)
		s.record(ctx, log, "retry job", func() error {
			_, err := s.store.RetryJob(bg, job)
			return err
		})
		s.nudge()
		return
	}
	defer s.passwords.drop(job.DocumentID)
	if err != nil {
		code := failureCode(err)
		log.Info("conversion failed", "code", code, "err", err)
		if s.record(ctx, log, "fail job", func() error {
			return s.store.FailJob(bg, job, code, failureMessage(err))
		}) {
			s.auditSystem(bg, job.DocumentID, "converter", store.ActConvertFailed, code)
		}
		return
	}
	if transactions == 0 {
		raw, err = noTransactions(raw)
		if err != nil {
			log.Error("encode result", "err", err)
			s.record(ctx, log, "fail job", func() error {
				return s.store.FailJob(bg, job, "conversion_failed", "The document could not be converted.")
			})
			return
		}
	}
	if !s.record(ctx, log, "complete job", func() error {
		return s.store.CompleteJob(bg, job, transactions, reconciliation, raw)
	}) {
		if ctx.Err() == nil {
			s.record(ctx, log, "fail job", func() error {
				return s.store.FailJob(bg, job, "conversion_failed", "The result could not be stored.")
			})
		}
		return
	}
	s.auditSystem(bg, job.DocumentID, "converter", store.ActConvert, fmt.Sprintf("%d transactions, %s", transactions, reconciliation))
	log.Info("conversion completed", "transactions", transactions,
		"reconciliation", reconciliation, "ms", time.Since(start).Milliseconds())
}

// keepLease renews job's lease every third of it until ctx is done. When a
// renewal finds the job no longer this claim's, it calls lost and stops; a
// renewal that fails otherwise (the database briefly away) is tried again
// at the next tick, and the lease may run out meanwhile.
func (s *Server) keepLease(ctx context.Context, log *slog.Logger, job store.Job, lost func()) {
	tick := time.NewTicker(max(s.store.Lease/3, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		err := s.store.RenewLease(ctx, job)
		switch {
		case errors.Is(err, store.ErrNotFound):
			lost()
			return
		case err != nil && ctx.Err() == nil:
			log.Error("renew job lease", "err", err)
		}
	}
}

// noTransactions adds to a result that found no transactions the warning
// that says so.
func noTransactions(raw []byte) ([]byte, error) {
	var res ledger.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("decode result: %w", err)
	}
	res.Statement.Warnings = append(res.Statement.Warnings, "no transactions were found: the file may be cut short, or hold no statement")
	return json.Marshal(&res)
}

// record runs a bookkeeping write until it holds, backing off from 100 ms to
// 5 s between tries: a full disk (store.ErrFull) frees up without a
// restart, so it is waited out; any other error gets 5 tries. It gives up
// when the write finds the document no longer processing, after those
// tries, or at shutdown: the job is then still claimed, and the next start
// queues it again.
func (s *Server) record(ctx context.Context, log *slog.Logger, what string, write func() error) bool {
	wait := 100 * time.Millisecond
	for try := 1; ; try++ {
		err := write()
		if err == nil {
			if try > 1 {
				log.Info(what+": written after retries", "tries", try)
			}
			return true
		}
		if errors.Is(err, store.ErrNotFound) {
			log.Warn(what+": document no longer processing", "err", err)
			return false
		}
		if !errors.Is(err, store.ErrFull) && try >= 5 {
			log.Error(what+": giving up", "tries", try, "err", err)
			return false
		}
		if try == 1 || try%20 == 0 {
			log.Error(what+": will retry", "tries", try, "err", err)
		}
		select {
		case <-ctx.Done():
			log.Error(what+": stopped by shutdown; the job is handed back as the node stops", "err", err)
			return false
		case <-time.After(wait):
		}
		wait = min(wait*2, 5*time.Second)
	}
}

// nudge wakes an idle worker.
func (s *Server) nudge() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// failures maps conversion errors to the code and message a client sees.
var failures = []struct {
	err  error
	code string
}{
	{source.ErrPassword, "password_required"},
	{source.ErrUnsupported, "unsupported_type"},
	{source.ErrTooLarge, "too_large"},
	// The limits a worker met say which; a limit the engine reported
	// itself keeps ErrLimit's words.
	{source.ErrCPU, "conversion_limit"},
	{source.ErrMemory, "conversion_limit"},
	{source.ErrStalled, "conversion_limit"},
	{source.ErrLimit, "conversion_limit"},
	{source.ErrCrashed, "converter_crashed"},
	{source.ErrCorrupt, "unreadable_file"},
}

func failureCode(err error) string {
	for _, f := range failures {
		if errors.Is(err, f.err) {
			return f.code
		}
	}
	return "conversion_failed"
}

func failureMessage(err error) string {
	for _, f := range failures {
		if errors.Is(err, f.err) {
			return f.err.Error()
		}
	}
	return "The document could not be converted."
}

// auditSystem records what the server did to a document by itself (a
// conversion, a retention deletion) in its office's trail, under the
// member who uploaded it.
func (s *Server) auditSystem(ctx context.Context, id, actor, action, detail string) {
	d, err := s.store.Document(ctx, id)
	if err != nil {
		s.log.Error("audit not recorded", "action", action, "file_id", id, "err", err)
		return
	}
	member, link, err := s.store.DocumentUploader(ctx, id)
	if err != nil {
		s.log.Error("audit not recorded", "action", action, "file_id", id, "err", err)
		return
	}
	if err := s.store.Record(ctx, store.Event{AccountID: d.AccountID, MemberID: member, LinkID: link, Actor: actor, Action: action,
		DocumentID: id, Detail: detail}); err != nil {
		s.log.Error("audit not recorded", "action", action, "file_id", id, "err", err)
	}
}
