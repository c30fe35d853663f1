-- PostgreSQL's twin of ../0033_document_search.sql: the bank, holder,
-- period and search words of a converted document, for the list's search.
ALTER TABLE documents ADD COLUMN bank TEXT;
ALTER TABLE documents ADD COLUMN holder TEXT;
ALTER TABLE documents ADD COLUMN period_start TEXT COLLATE "C";
ALTER TABLE documents ADD COLUMN period_end TEXT COLLATE "C";
ALTER TABLE documents ADD COLUMN search_text TEXT;
-- Documents labelled before this read again, with their bank and holder.
UPDATE documents SET account_label = NULL;
