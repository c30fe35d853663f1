-- PostgreSQL's twin of ../0011_edits_deletes.sql: a person's corrected
-- transactions beside the original result, and deletion.
ALTER TABLE documents ADD COLUMN edited TEXT;
ALTER TABLE documents ADD COLUMN edited_reconciliation TEXT;
ALTER TABLE documents ADD COLUMN edited_count INTEGER;
ALTER TABLE documents ADD COLUMN edited_at TEXT COLLATE "C";
ALTER TABLE documents ADD COLUMN deleted_at TEXT COLLATE "C";
