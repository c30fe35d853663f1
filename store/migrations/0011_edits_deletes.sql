-- A person's corrected transactions, kept beside the original result, and
-- deletion: a deleted document keeps only its row (the quota ledger points
-- at it), with its bytes, results and edits gone.
ALTER TABLE documents ADD COLUMN edited TEXT;
ALTER TABLE documents ADD COLUMN edited_reconciliation TEXT;
ALTER TABLE documents ADD COLUMN edited_count INTEGER;
ALTER TABLE documents ADD COLUMN edited_at TEXT;
ALTER TABLE documents ADD COLUMN deleted_at TEXT;
