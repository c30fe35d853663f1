-- PostgreSQL's twin of ../0030_folder_choices.sql: a statement set aside
-- in a folder, and each upload's SHA-256.
ALTER TABLE folder_documents ADD COLUMN set_aside_at TEXT COLLATE "C";
ALTER TABLE documents ADD COLUMN content_sha256 TEXT COLLATE "C";
CREATE INDEX documents_account_sha256 ON documents (account_id, content_sha256);
ALTER TABLE documents ADD COLUMN account_label TEXT;
