package store

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// statusCache keeps what GET /status last read of each document polled,
// so that polling costs no database round trip until the document changes.
// It is exact, not timed: every write to a document's status through this
// Store drops its entry; writes by others are caught too: on PostgreSQL each
// such write notifies every node (NOTIFY passbook_status, the file_id), and
// a node caches nothing while it is not listening; on SQLite, whose other
// writers are only the administration commands, a change of the data
// file's data_version, read every watchEvery, clears the whole cache.
type statusCache struct {
	mu sync.Mutex
	m  map[string]Progress
	// gen counts drops: a read that began before one may hold what the
	// write replaced, so it is not kept.
	gen uint64
	// on says the cache may be filled: always on SQLite, while the
	// listener listens on PostgreSQL.
	on bool
}

// statusCacheMax bounds the cache; past it, it starts again empty.
const statusCacheMax = 16384

// watchEvery is how often the data file's data_version is read (SQLite),
// and how soon a lost PostgreSQL listener is started again.
const watchEvery = 250 * time.Millisecond

// statusChannel is the PostgreSQL channel status changes are announced on.
const statusChannel = "passbook_status"

// get returns the cached progress of id, and the generation to hand to put
// after reading it from the database.
func (c *statusCache) get(id string) (Progress, bool, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.m[id]
	return p, ok, c.gen
}

// put keeps p, read when the generation was gen, unless something was
// dropped since.
func (c *statusCache) put(p Progress, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.on || gen != c.gen {
		return
	}
	if c.m == nil || len(c.m) >= statusCacheMax {
		c.m = map[string]Progress{}
	}
	c.m[p.ID] = p
}

// drop forgets id: its status changed.
func (c *statusCache) drop(id string) {
	c.mu.Lock()
	c.gen++
	delete(c.m, id)
	c.mu.Unlock()
}

// reset forgets every document, and turns filling on or off.
func (c *statusCache) reset(on bool) {
	c.mu.Lock()
	c.gen++
	c.m, c.on = nil, on
	c.mu.Unlock()
}

// changed is called after a write to id's status commits (or fails: the
// entry is dropped either way).
func (s *Store) changed(id string) { s.status.drop(id) }

// notify announces, within tx, that id's status changes: on PostgreSQL
// every node drops its cached status when tx commits.
func (s *Store) notify(ctx context.Context, tx *tx, id string) error {
	if s.d != postgresDB {
		return nil
	}
	_, err := tx.ExecContext(ctx, "SELECT pg_notify(?, ?)", statusChannel, id)
	return err
}

// watch keeps the status cache true to writes made elsewhere until ctx is
// done: it listens for other nodes' notifications (PostgreSQL), or reads
// the data file's data_version (SQLite).
func (s *Store) watch(ctx context.Context) {
	if s.d == postgresDB {
		s.listen(ctx)
		return
	}
	var last int64 = -1 // -1 until read: the cache stays off till then
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		var v int64
		// On the writer: its data_version moves only when another
		// connection (another process) commits. The cache is turned on
		// only once a version is read: a write made before that read
		// would otherwise never be seen.
		switch err := s.w.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); {
		case err != nil:
			s.status.reset(false)
			v = -1
		case v != last:
			s.status.reset(true)
		}
		last = v
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// listen holds a connection of its own that LISTENs on statusChannel and
// drops each document it hears of; while it is not listening (at start,
// after a lost connection) the cache is off and empty.
func (s *Store) listen(ctx context.Context) {
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, s.dsn)
		if err == nil {
			if _, err = conn.Exec(ctx, "LISTEN "+statusChannel); err == nil {
				s.status.reset(true)
				for {
					n, err := conn.WaitForNotification(ctx)
					if err != nil {
						break
					}
					s.status.drop(n.Payload)
				}
			}
			s.status.reset(false)
			conn.Close(context.WithoutCancel(ctx))
		}
		select {
		case <-ctx.Done():
		case <-time.After(watchEvery):
		}
	}
}
