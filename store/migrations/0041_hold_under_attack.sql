-- Issue 41's security review.
--
-- An invitation an owner withdrew, or one whose maker was removed or is
-- no longer an owner, takes no one in.
ALTER TABLE invites ADD COLUMN withdrawn_at TEXT;
UPDATE invites SET withdrawn_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE used_at IS NULL AND invited_by IN (SELECT id FROM members WHERE removed_at IS NOT NULL OR role != 'owner');

-- A removed member's upload links die with the member (removals from now
-- on may pass them to an owner instead).
UPDATE upload_links SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE revoked_at IS NULL AND created_by IN (SELECT id FROM members WHERE removed_at IS NOT NULL);

-- The audit trail is a hash chain: each line carries the hash of the line
-- before it (prev_hash) and its own (hash, over its fields and
-- prev_hash); see store.Record and VerifyAudit. Lines from before this
-- migration have no hash and stay as they were, before the chain's start.
ALTER TABLE audit ADD COLUMN prev_hash TEXT;
ALTER TABLE audit ADD COLUMN hash TEXT;
-- A line goes at the end only: not over another line's id (INSERT OR
-- REPLACE deletes the old line without firing the delete trigger), not
-- before the last line's time, and once the chain has begun only with a
-- hash that names the last line's.
CREATE TRIGGER audit_at_end BEFORE INSERT ON audit
    WHEN NEW.id IS NULL OR NEW.id < 0
        OR EXISTS (SELECT 1 FROM audit WHERE id >= NEW.id)
        OR (NEW.hash IS NULL AND (SELECT hash FROM audit ORDER BY id DESC LIMIT 1) IS NOT NULL)
        OR (NEW.hash IS NOT NULL AND NEW.prev_hash IS NOT (SELECT hash FROM audit ORDER BY id DESC LIMIT 1))
        OR (NEW.hash IS NOT NULL AND julianday(NEW.created_at) < (SELECT julianday(created_at) FROM audit ORDER BY id DESC LIMIT 1))
    BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only: a line goes at its end, with the last line''s hash, not before its time'); END;
