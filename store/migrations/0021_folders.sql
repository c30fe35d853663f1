-- Folders: a client's statements kept together, for continuity across
-- months. A folder holds documents; deleting the folder keeps them, and
-- deleting a document takes it out of its folders.
CREATE TABLE folders (
    id         TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    name       TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX folders_account ON folders (account_id, created_at);

CREATE TABLE folder_documents (
    folder_id   TEXT NOT NULL REFERENCES folders (id) ON DELETE CASCADE,
    document_id TEXT NOT NULL REFERENCES documents (id),
    added_at    TEXT NOT NULL,
    PRIMARY KEY (folder_id, document_id)
);
CREATE INDEX folder_documents_document ON folder_documents (document_id);
