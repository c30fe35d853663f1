package ledger

import (
	"time"

	"github.com/shopspring/decimal"
)

// Transaction is one booked movement of money. Exactly one of AmountIn and
// AmountOut is set.
type Transaction struct {
	// Date is the posting (booking) date, at midnight UTC.
	Date time.Time
	// Description is the text as printed, wrapped lines joined by one space.
	Description string
	AmountIn    *decimal.Decimal
	AmountOut   *decimal.Decimal
	// Balance is the balance after the transaction: printed, or computed from
	// the opening balance when the row prints none (Provenance says which).
	Balance decimal.Decimal
	// Warnings says what was inferred or corrected on this row, each with
	// its kind and facts beside a message for a person.
	Warnings []Warning
	// Provenance says which of the row's values the document prints and
	// which the conversion inferred: status is judged from it.
	Provenance Provenance
	// Account is the number of the account the row belongs to when the
	// document holds several accounts (see Statement.Accounts); "" otherwise.
	Account string
	// Page is the 1-based page the row was read from; 0 when unknown.
	Page int
	// Box is the row's extent on its page in PDF points from the page's
	// top-left corner: x0, y0, x1, y1. All zero when unknown.
	Box [4]float64
}

// WarningTexts are the messages of the row's warnings, for a person.
func (t Transaction) WarningTexts() []string {
	if len(t.Warnings) == 0 {
		return nil
	}
	out := make([]string, len(t.Warnings))
	for i, w := range t.Warnings {
		out[i] = w.Message
	}
	return out
}

// Type is CREDIT when money came in and DEBIT when it went out.
func (t Transaction) Type() string {
	if t.AmountIn != nil {
		return "CREDIT"
	}
	return "DEBIT"
}

// Reconciliation statuses.
const (
	ReconcileOK             = "ok"              // every printed balance and the closing balance agree
	ReconcileMismatch       = "mismatch"        // the arithmetic breaks somewhere: see Rows
	ReconcileUnverified     = "unverified"      // the document prints nothing that could prove the rows
	ReconcileNoTransactions = "no_transactions" // the document holds no transactions
)

// Reconciliation reports whether opening balance + in − out meets every
// printed balance and the closing balance.
type Reconciliation struct {
	Status string
	// Difference is the first break: printed minus computed balance.
	Difference *decimal.Decimal
	// Rows are the 0-based indexes of transactions where the chain breaks.
	Rows []int
	// Message explains the status to a person.
	Message string
}

// Statement is what the document says about itself beyond its rows.
type Statement struct {
	AccountNumber  string // masked as printed
	PeriodStart    *time.Time
	PeriodEnd      *time.Time
	Currency       string // ISO 4217 code when known
	OpeningBalance *decimal.Decimal
	ClosingBalance *decimal.Decimal
	// TotalIn and TotalOut are the sums of money in and out over the period
	// as the statement prints them, when it does.
	TotalIn, TotalOut *decimal.Decimal
	Reconciliation    Reconciliation
	// Proof is what the arithmetic established and the doubts the reading
	// left, from which Judge decided Reconciliation (for a document of
	// several accounts, each account's is in Accounts).
	Proof Proof
	// Warnings are notes on the whole document (a page that could not be read).
	Warnings []string
	// Accounts lists each account when one document holds several, each
	// with its own balances and reconciliation; nil for a single account,
	// which the fields above describe.
	Accounts []Account
	// Bank and Holder name the institution that issued the statement and
	// the account's holder, where the document says so (see extract/tables/parties.go);
	// "" when it does not.
	Bank, Holder string
	// IBAN is the account's IBAN, without spaces, where the statement
	// prints one that passes its check: AccountNumber itself, or one
	// printed beside a national account number (see reading.ReadIBAN).
	// "" when it prints none.
	IBAN string
	// MoneyColumns are the rows' money columns in the order the statement
	// prints them, left to right, as the reading took them: "out", "in",
	// "amount" (one signed column) and "balance". Nil when the rows
	// stand in no table (see reading.moneyColumns).
	MoneyColumns []string
}

// Account is one account of a document that holds several.
type Account struct {
	Number         string
	IBAN           string // as Statement.IBAN
	Currency       string
	PeriodStart    *time.Time
	PeriodEnd      *time.Time
	OpeningBalance *decimal.Decimal
	ClosingBalance *decimal.Decimal
	Reconciliation Reconciliation
	Proof          Proof
}

// Result is a converted document.
type Result struct {
	PageCount    int
	Transactions []Transaction
	Statement    Statement
	// Integrity is the report on signs that the file was altered
	// (extract/integrity); nil when none was made (an image, or a result
	// stored before there were reports).
	Integrity *Integrity
}
