-- PostgreSQL's twin of ../0022_status_leases.sql: the reconciliation status
-- in its own column, written when the job ends, and job leases. No
-- PostgreSQL database predates it, but a result is read the same way.
ALTER TABLE documents ADD COLUMN reconciliation TEXT;
UPDATE documents SET reconciliation = result::jsonb #>> '{Statement,Reconciliation,Status}'
    WHERE result IS NOT NULL;

ALTER TABLE jobs ADD COLUMN lease_until TEXT COLLATE "C";
ALTER TABLE jobs ADD COLUMN claim TEXT;
CREATE INDEX jobs_claim ON jobs (state, lease_until);
