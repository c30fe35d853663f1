// Reads MT940 files with mt940js and prints, as JSON, per file either the
// statements it read or the error it refused the file with. mt940js checks
// each statement's mandatory fields, one currency, and that the opening
// balance plus the lines gives the closing balance.
//
// Usage: node read.js FILE...   (after `npm ci` in this folder; make test-deps)
"use strict";
const fs = require("fs");
const mt940 = require("mt940js");

const day = (d) => d ? new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 10) : null;
const out = {};
for (const path of process.argv.slice(2)) {
  try {
    const statements = new mt940.Parser().parse(fs.readFileSync(path, "utf8"));
    out[path] = {
      statements: statements.map((s) => ({
        account: s.accountIdentification,
        number: s.number.statement,
        currency: s.currency,
        opening: s.openingBalance.toFixed(2),
        opening_date: day(s.openingBalanceDate),
        closing: s.closingBalance.toFixed(2),
        closing_date: day(s.closingBalanceDate),
        info: s.informationToAccountOwner || "",
        transactions: s.transactions.map((t) => ({
          date: day(t.date),
          amount: t.amount.toFixed(2),
          bank_reference: t.bankReference || "",
          details: t.details,
        })),
      })),
    };
  } catch (e) {
    out[path] = { error: String(e.message || e) };
  }
}
process.stdout.write(JSON.stringify(out));
