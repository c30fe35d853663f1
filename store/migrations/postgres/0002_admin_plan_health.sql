-- PostgreSQL's twin of ../0002_admin_plan_health.sql: the admin plan (no
-- page limit) joins the plans an account may have, and the row the
-- readiness check rewrites.
ALTER TABLE accounts DROP CONSTRAINT accounts_plan_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_plan_check
    CHECK (plan IN ('free', 'professional', 'business', 'enterprise', 'admin'));

CREATE TABLE health (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    checked_at TEXT NOT NULL
);
