-- Accounts, their API keys (SHA-256 hashes only), uploaded documents with
-- their bytes and results, the job queue, and the quota ledger.
CREATE TABLE accounts (
    id         INTEGER PRIMARY KEY,
    email      TEXT NOT NULL UNIQUE,
    plan       TEXT NOT NULL CHECK (plan IN ('free', 'professional', 'business', 'enterprise')),
    credits    INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
    created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
    id         INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    hash       BLOB NOT NULL UNIQUE,
    prefix     TEXT NOT NULL,
    label      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

CREATE TABLE documents (
    id                TEXT PRIMARY KEY,
    account_id        INTEGER NOT NULL REFERENCES accounts (id),
    original_name     TEXT NOT NULL,
    kind              TEXT NOT NULL,
    page_count        INTEGER NOT NULL CHECK (page_count > 0),
    size              INTEGER NOT NULL,
    content           BLOB NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
    pages_done        INTEGER NOT NULL DEFAULT 0,
    transaction_count INTEGER,
    result            TEXT,
    error_code        TEXT,
    error             TEXT,
    created_at        TEXT NOT NULL,
    finished_at       TEXT
);
CREATE INDEX documents_account ON documents (account_id, created_at);

-- A document is queued while it has a job row; the row goes when it ends.
-- The PDF password lives here only as long as the job does.
CREATE TABLE jobs (
    document_id TEXT PRIMARY KEY REFERENCES documents (id),
    state       TEXT NOT NULL CHECK (state IN ('queued', 'running')),
    password    TEXT NOT NULL DEFAULT '',
    attempts    INTEGER NOT NULL DEFAULT 0,
    queued_at   TEXT NOT NULL,
    claimed_at  TEXT
);
CREATE INDEX jobs_queue ON jobs (state, queued_at);

-- One row a charge. period_start names the quota period charged; a refund
-- marks the row and gives credit pages back.
CREATE TABLE usage (
    id           INTEGER PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    document_id  TEXT NOT NULL REFERENCES documents (id),
    period_start TEXT NOT NULL,
    quota_pages  INTEGER NOT NULL CHECK (quota_pages >= 0),
    credit_pages INTEGER NOT NULL CHECK (credit_pages >= 0),
    created_at   TEXT NOT NULL,
    refunded_at  TEXT
);
CREATE INDEX usage_period ON usage (account_id, period_start);
CREATE UNIQUE INDEX usage_document ON usage (document_id);
