-- A person's choices in a folder and the bytes of each upload: a statement
-- set aside in a folder (kept in it, shown apart, left out of its
-- continuity and downloads) where another one was kept instead; and each
-- upload's SHA-256, so that the same bytes uploaded again can be named.
ALTER TABLE folder_documents ADD COLUMN set_aside_at TEXT;
ALTER TABLE documents ADD COLUMN content_sha256 TEXT;
CREATE INDEX documents_account_sha256 ON documents (account_id, content_sha256);
-- The account (number and currency) a converted document's statement
-- names, as served (corrections included), for searching the documents
-- list; filled when the list is read, emptied when corrections change.
ALTER TABLE documents ADD COLUMN account_label TEXT;
