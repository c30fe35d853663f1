-- PostgreSQL's twin of ../0021_folders.sql: folders, a client's statements
-- kept together. Deleting a folder keeps its documents; deleting a document
-- takes it out of its folders. seq stands in for SQLite's rowid: the order
-- documents were added in, among those added in the same instant.
CREATE TABLE folders (
    id         TEXT COLLATE "C" PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    name       TEXT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX folders_account ON folders (account_id, created_at);

CREATE TABLE folder_documents (
    folder_id   TEXT COLLATE "C" NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
    document_id TEXT COLLATE "C" NOT NULL REFERENCES documents (id),
    added_at    TEXT COLLATE "C" NOT NULL,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (folder_id, document_id)
);
CREATE INDEX folder_documents_document ON folder_documents (document_id);
