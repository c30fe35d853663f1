-- Passwords no longer reach the disk: a job only records that its PDF needs
-- one, and the server keeps the password in memory. Passwords stored before
-- this migration are wiped; those jobs fail password_required when they run.
ALTER TABLE jobs ADD COLUMN encrypted INTEGER NOT NULL DEFAULT 0;
UPDATE jobs SET encrypted = 1 WHERE password != '';
UPDATE jobs SET password = '';

-- An upload's Idempotency-Key: the same key from the same account within
-- 24 hours answers the first upload's document and charges nothing more.
CREATE TABLE idempotency_keys (
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    key         TEXT NOT NULL,
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_document ON idempotency_keys (document_id);
