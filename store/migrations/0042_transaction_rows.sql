-- The rows of converted statements, to find transactions across a
-- client's year and across the office (issue 42 point 7): a row per
-- transaction of a document as served (a person's corrections applied),
-- written with the document's labels (0033) and emptied with them, and
-- removed when the document is deleted. amount is the signed amount in
-- hundredths; description is as printed, words its lower-cased search
-- text with the account.
CREATE TABLE transaction_rows (
    document_id TEXT NOT NULL REFERENCES documents (id),
    seq         INTEGER NOT NULL,
    account_id  INTEGER NOT NULL,
    date        TEXT NOT NULL,
    amount      INTEGER NOT NULL,
    balance     TEXT NOT NULL,
    description TEXT NOT NULL,
    words       TEXT NOT NULL,
    account     TEXT NOT NULL,
    PRIMARY KEY (document_id, seq)
);
CREATE INDEX transaction_rows_date ON transaction_rows (account_id, date);
CREATE INDEX transaction_rows_amount ON transaction_rows (account_id, amount);
-- Every converted document is labelled again, and its rows written.
UPDATE documents SET account_label = NULL;
