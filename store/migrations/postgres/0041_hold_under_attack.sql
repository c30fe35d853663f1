-- Issue 41's security review; see the SQLite migration of the same number.
ALTER TABLE invites ADD COLUMN withdrawn_at TEXT COLLATE "C";
UPDATE invites SET withdrawn_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
    WHERE used_at IS NULL AND invited_by IN (SELECT id FROM members WHERE removed_at IS NOT NULL OR role != 'owner');

UPDATE upload_links SET revoked_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
    WHERE revoked_at IS NULL AND created_by IN (SELECT id FROM members WHERE removed_at IS NOT NULL);

ALTER TABLE audit ADD COLUMN prev_hash TEXT COLLATE "C";
ALTER TABLE audit ADD COLUMN hash TEXT COLLATE "C";
CREATE FUNCTION audit_at_end() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last_id BIGINT;
    last_hash TEXT;
    last_at TEXT;
BEGIN
    SELECT id, hash, created_at INTO last_id, last_hash, last_at FROM audit ORDER BY id DESC LIMIT 1;
    IF NEW.id IS NULL OR NEW.id <= coalesce(last_id, 0)
        OR (NEW.hash IS NULL AND last_hash IS NOT NULL)
        OR (NEW.hash IS NOT NULL AND NEW.prev_hash IS DISTINCT FROM last_hash)
        OR (NEW.hash IS NOT NULL AND last_at IS NOT NULL AND NEW.created_at::timestamptz < last_at::timestamptz) THEN
        RAISE EXCEPTION 'the audit trail is append-only: a line goes at its end, with the last line''s hash, not before its time';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER audit_at_end BEFORE INSERT ON audit
    FOR EACH ROW EXECUTE FUNCTION audit_at_end();
