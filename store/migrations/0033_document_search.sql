-- What the documents list is searched and filtered by, beside
-- account_label (0030): the bank and holder a converted statement names,
-- its period, and search_text, the lower-cased words a search matches
-- (file name, account with and without its spaces, bank, holder). Filled
-- with account_label, emptied with it when corrections change.
ALTER TABLE documents ADD COLUMN bank TEXT;
ALTER TABLE documents ADD COLUMN holder TEXT;
ALTER TABLE documents ADD COLUMN period_start TEXT;
ALTER TABLE documents ADD COLUMN period_end TEXT;
ALTER TABLE documents ADD COLUMN search_text TEXT;
-- Documents labelled before this read again, with their bank and holder.
UPDATE documents SET account_label = NULL;
