package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"passbook/extract"
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
	wg.Wait()
	return nil
}

func (s *Server) work(ctx context.Context) {
	s.workersUp.Add(1)
	defer s.workersUp.Add(-1)
	tick := time.NewTicker(s.cfg.PollInterval)
	defer tick.Stop()
	for {
		job, err := s.store.ClaimJob(ctx)
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

// runJob converts one document and records the outcome. Only a shutdown
// leaves the job unfinished, handed back to the queue.
func (s *Server) runJob(ctx context.Context, job store.Job) {
	log := s.log.With("file_id", job.DocumentID)
	// Bookkeeping must survive the shutdown that cancels the conversion.
	bg := context.WithoutCancel(ctx)
	if job.Attempts > s.cfg.MaxAttempts {
		log.Warn("giving up on a conversion interrupted too often", "attempts", job.Attempts)
		if err := s.store.FailJob(bg, job.DocumentID, "interrupted", "The conversion was interrupted repeatedly and was stopped."); err != nil {
			log.Error("fail job", "err", err)
		}
		return
	}
	start := time.Now()
	res, err := s.conv.Convert(ctx, job.Content, extract.Options{
		Password: job.Password,
		Progress: func(done, total int) {
			if err := s.store.SetProgress(bg, job.DocumentID, done); err != nil {
				log.Error("record progress", "err", err)
			}
		},
	})
	if ctx.Err() != nil {
		if err := s.store.ReleaseJob(bg, job.DocumentID); err != nil {
			log.Error("release job", "err", err)
		}
		return
	}
	if err != nil {
		code := failureCode(err)
		log.Info("conversion failed", "code", code, "err", err)
		if err := s.store.FailJob(bg, job.DocumentID, code, failureMessage(err)); err != nil {
			log.Error("fail job", "err", err)
		}
		return
	}
	raw, err := json.Marshal(res)
	if err == nil {
		err = s.store.CompleteJob(bg, job.DocumentID, len(res.Transactions), raw)
	}
	if err != nil {
		log.Error("complete job", "err", err)
		return
	}
	log.Info("conversion completed", "transactions", len(res.Transactions),
		"reconciliation", res.Statement.Reconciliation.Status, "ms", time.Since(start).Milliseconds())
}

// failures maps conversion errors to the code and message a client sees.
var failures = []struct {
	err  error
	code string
}{
	{extract.ErrPassword, "password_required"},
	{extract.ErrUnsupported, "unsupported_type"},
	{extract.ErrTooLarge, "too_large"},
	{extract.ErrLimit, "conversion_limit"},
	{extract.ErrCrashed, "converter_crashed"},
	{extract.ErrCorrupt, "unreadable_file"},
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
