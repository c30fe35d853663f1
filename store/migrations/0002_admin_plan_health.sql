-- The admin plan (no page limit) joins the plans an account may have. SQLite
-- cannot change a CHECK in place, so accounts is rebuilt the documented way
-- (migrate runs this with foreign keys off and checks them before commit).
CREATE TABLE accounts_new (
    id         INTEGER PRIMARY KEY,
    email      TEXT NOT NULL UNIQUE,
    plan       TEXT NOT NULL CHECK (plan IN ('free', 'professional', 'business', 'enterprise', 'admin')),
    credits    INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
    created_at TEXT NOT NULL
);
INSERT INTO accounts_new (id, email, plan, credits, created_at)
    SELECT id, email, plan, credits, created_at FROM accounts;
DROP TABLE accounts;
ALTER TABLE accounts_new RENAME TO accounts;

-- One row the readiness check rewrites, to prove the data file takes writes.
CREATE TABLE health (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at TEXT NOT NULL
);
