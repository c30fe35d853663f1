package server

import (
	"context"
	"errors"
	"time"

	"passbook/store"
)

// retain deletes documents older than cfg.Retention, now and every period,
// until ctx is done.
func (s *Server) retain(ctx context.Context, period time.Duration) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		s.retentionPass(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// retentionPass deletes every document uploaded more than cfg.Retention
// ago, as DELETE does; it returns how many it deleted.
func (s *Server) retentionPass(ctx context.Context) int {
	ids, err := s.store.ExpiredDocuments(ctx, s.store.Now().Add(-s.cfg.Retention))
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("retention: list expired documents", "err", err)
		}
		return 0
	}
	n := 0
	for _, id := range ids {
		s.auditSystem(ctx, id, "retention", store.ActRetentionDel, s.cfg.Retention.String())
		err := s.store.DeleteDocument(ctx, id)
		switch {
		case err == nil, errors.Is(err, store.ErrNotFound):
			s.passwords.drop(id)
			n++
		case ctx.Err() != nil:
			return n
		default:
			s.log.Error("retention: delete document", "file_id", id, "err", err)
		}
	}
	if n > 0 {
		s.log.Info("retention: deleted old documents", "documents", n, "retention", s.cfg.Retention.String())
	}
	return n
}
