-- Issue 41's security review; see the SQLite migration of the same number.
ALTER TABLE invites ADD COLUMN withdrawn_at TEXT COLLATE "C";
UPDATE invites SET withdrawn_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
    WHERE used_at IS NULL AND invited_by IN (SELECT id FROM members WHERE removed_at IS NOT NULL OR role != 'owner');

UPDATE upload_links SET revoked_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
    WHERE revoked_at IS NULL AND created_by IN (SELECT id FROM members WHERE removed_at IS NOT NULL);

ALTER TABLE audit ADD COLUMN prev_hash TEXT COLLATE "C";
ALTER TABLE audit ADD COLUMN hash TEXT COLLATE "C";
-- A line goes at the end only, as on SQLite. And a line that comes
-- without a hash once the chain has begun, from a node of the version
-- before it during a rolling upgrade, is chained here as store.Record
-- chains one (the same lock, the next id, no earlier than the last line,
-- lineHash's encoding: each field's length in bytes, a colon, the field),
-- so that no line is lost while old and new nodes share the database.
CREATE FUNCTION audit_at_end() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last_id BIGINT;
    last_hash TEXT;
    last_at TEXT;
    f TEXT;
    fields TEXT := '';
BEGIN
    PERFORM pg_advisory_xact_lock(1635083380); -- store.auditLock, "audt"
    SELECT id, hash, created_at INTO last_id, last_hash, last_at FROM audit ORDER BY id DESC LIMIT 1;
    IF NEW.hash IS NULL AND NEW.prev_hash IS NULL AND last_hash IS NOT NULL THEN
        NEW.id := last_id + 1;
        IF NEW.created_at::timestamptz < last_at::timestamptz THEN
            NEW.created_at := last_at;
        END IF;
        NEW.prev_hash := last_hash;
        FOREACH f IN ARRAY ARRAY[NEW.id::text, coalesce(NEW.account_id, 0)::text, coalesce(NEW.member_id, 0)::text,
                NEW.actor, NEW.action, coalesce(NEW.document_id, ''), coalesce(NEW.folder_id, ''), coalesce(NEW.link_id, ''),
                NEW.address, NEW.detail, NEW.created_at, last_hash] LOOP
            fields := fields || octet_length(f)::text || ':' || f;
        END LOOP;
        NEW.hash := encode(sha256(convert_to(fields, 'UTF8')), 'hex');
    END IF;
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
