package store

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// keyCacheTTL is how long a looked-up API key is trusted without asking the
// data file again. A key revoked (or an account changed) by another process,
// such as `passbook keys revoke`, stops working within this time; changes
// made through this Store clear the cache at once.
const keyCacheTTL = 500 * time.Millisecond

// keyCacheMax bounds the cache; past it, the cache starts again empty.
const keyCacheMax = 4096

// keyCache remembers recent key lookups, so a client polling its status
// costs one query, not two. Its clock is the real one, not Store.Now:
// freshness is not business time.
type keyCache struct {
	mu sync.Mutex
	m  map[string]keyEntry // by key hash
}

type keyEntry struct {
	cacheEntry
	expires time.Time
}

// cacheEntry is what a key or a session's token stands for.
type cacheEntry struct {
	caller  Caller
	session Session
}

func (c *keyCache) get(hash []byte) (cacheEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[string(hash)]
	if !ok || time.Now().After(e.expires) {
		return cacheEntry{}, false
	}
	return e.cacheEntry, true
}

func (c *keyCache) put(hash []byte, ce cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= keyCacheMax {
		c.m = map[string]keyEntry{}
	}
	c.m[string(hash)] = keyEntry{cacheEntry: ce, expires: time.Now().Add(keyCacheTTL)}
}

// clear forgets every lookup: a key was revoked or an account changed.
func (c *keyCache) clear() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}

// statusStmts are the read queries of the request path, prepared once on
// the read-only pool.
type statusStmts struct {
	callerByKey, callerBySession, document, status *sql.Stmt
}

func (s *Store) prepare(ctx context.Context) error {
	var err error
	if s.stmts.callerByKey, err = s.r.PrepareContext(ctx, callerByKeySQL); err != nil {
		return err
	}
	if s.stmts.callerBySession, err = s.r.PrepareContext(ctx, callerBySessionSQL); err != nil {
		return err
	}
	if s.stmts.document, err = s.r.PrepareContext(ctx, "SELECT "+documentColumns+" FROM documents WHERE id = ? AND deleted_at IS NULL"); err != nil {
		return err
	}
	s.stmts.status, err = s.r.PrepareContext(ctx, progressSQL)
	return err
}
