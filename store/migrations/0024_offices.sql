-- An office, not a key. The accounts table stays what the quota ledger,
-- documents and folders point at, and is now the office: its work belongs
-- to it, its quota is charged to it. People are its members, each with a
-- role; API keys and sign-in sessions act as a member. Every account
-- before this migration becomes an office of one owner, its e-mail the
-- owner's, its keys the owner's (members take the accounts' ids, so
-- nothing else needs to move).
ALTER TABLE accounts ADD COLUMN name TEXT NOT NULL DEFAULT '';
UPDATE accounts SET name = email;

CREATE TABLE members (
    id            INTEGER PRIMARY KEY,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    email         TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('owner', 'staff', 'read_only')),
    -- Argon2id in the PHC string form; '' until a password is set.
    password_hash TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    removed_at    TEXT
);
-- A removed member keeps its row (the trail and documents name it); the
-- address may be invited again.
CREATE UNIQUE INDEX members_email ON members (email) WHERE removed_at IS NULL;
CREATE INDEX members_account ON members (account_id);
INSERT INTO members (id, account_id, email, role, created_at)
    SELECT id, id, email, 'owner', created_at FROM accounts;

ALTER TABLE api_keys ADD COLUMN member_id INTEGER REFERENCES members (id);
UPDATE api_keys SET member_id = account_id;

-- A sign-in: only the SHA-256 of the cookie's token is kept; csrf is the
-- token the page sends back in a header on every state-changing request.
CREATE TABLE sessions (
    id         INTEGER PRIMARY KEY,
    hash       BLOB NOT NULL UNIQUE,
    member_id  INTEGER NOT NULL REFERENCES members (id),
    csrf       TEXT NOT NULL,
    address    TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    seen_at    TEXT NOT NULL
);
CREATE INDEX sessions_member ON sessions (member_id);

-- A one-time invitation to join an office, by link.
CREATE TABLE invites (
    id         INTEGER PRIMARY KEY,
    hash       BLOB NOT NULL UNIQUE,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    email      TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('owner', 'staff', 'read_only')),
    invited_by INTEGER REFERENCES members (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT
);

-- A client's upload link: its holder adds statements to one folder.
CREATE TABLE upload_links (
    id         TEXT PRIMARY KEY,
    hash       BLOB NOT NULL UNIQUE,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    folder_id  TEXT NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
    created_by INTEGER REFERENCES members (id),
    label      TEXT NOT NULL DEFAULT '',
    page_limit INTEGER,
    pages_used INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX upload_links_account ON upload_links (account_id, created_at);

-- Who put a document in: a member, or a client through a link.
ALTER TABLE documents ADD COLUMN member_id INTEGER REFERENCES members (id);
ALTER TABLE documents ADD COLUMN link_id TEXT;

-- The audit trail: append-only. Nothing refers to it and it refers to
-- nothing by key, so deleting a document (by hand or by retention) or a
-- member leaves it whole; the actor's e-mail is kept as it was.
CREATE TABLE audit (
    id          INTEGER PRIMARY KEY,
    account_id  INTEGER,
    member_id   INTEGER,
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    document_id TEXT,
    folder_id   TEXT,
    link_id     TEXT,
    address     TEXT NOT NULL DEFAULT '',
    detail      TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL
);
CREATE INDEX audit_account ON audit (account_id, id);
CREATE INDEX audit_document ON audit (document_id, id);
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
    BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
    BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
