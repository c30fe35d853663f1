-- PostgreSQL's twin of ../0042_transaction_rows.sql: the rows of
-- converted statements, to find transactions across an office.
CREATE TABLE transaction_rows (
    document_id TEXT NOT NULL REFERENCES documents (id),
    seq         INTEGER NOT NULL,
    account_id  BIGINT NOT NULL,
    date        TEXT COLLATE "C" NOT NULL,
    amount      BIGINT NOT NULL,
    balance     TEXT NOT NULL,
    description TEXT NOT NULL,
    words       TEXT NOT NULL,
    account     TEXT NOT NULL,
    PRIMARY KEY (document_id, seq)
);
CREATE INDEX transaction_rows_date ON transaction_rows (account_id, date);
CREATE INDEX transaction_rows_amount ON transaction_rows (account_id, amount);
UPDATE documents SET account_label = NULL;
