-- PostgreSQL's twin of ../0005_reliability.sql: a job records only that its
-- PDF needs a password (the server keeps the password in memory), and an
-- upload's Idempotency-Key is remembered for 24 hours.
ALTER TABLE jobs ADD COLUMN encrypted BOOLEAN NOT NULL DEFAULT false;
UPDATE jobs SET encrypted = true WHERE password != '';
UPDATE jobs SET password = '';

CREATE TABLE idempotency_keys (
    account_id  BIGINT NOT NULL REFERENCES accounts (id),
    key         TEXT NOT NULL,
    document_id TEXT COLLATE "C" NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    created_at  TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_document ON idempotency_keys (document_id);
