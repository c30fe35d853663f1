-- What GET /status and listings show is kept in columns, written when the
-- job ends: the reconciliation status no longer comes from parsing the
-- stored result on every request (json_extract over the whole result cost
-- a status request most of its time). Rows completed before this migration
-- get theirs from their result, once, here.
ALTER TABLE documents ADD COLUMN reconciliation TEXT;
UPDATE documents SET reconciliation = json_extract(result, '$.Statement.Reconciliation.Status')
    WHERE result IS NOT NULL AND json_valid(result);

-- A claimed job is its worker's until lease_until, which the worker keeps
-- renewing; claim names the claim (node and a random part), so that only
-- the worker holding the job can end it. Once a lease runs out, another
-- worker may take the job over.
ALTER TABLE jobs ADD COLUMN lease_until TEXT;
ALTER TABLE jobs ADD COLUMN claim TEXT;
