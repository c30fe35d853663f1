package export

import (
	"cmp"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"passbook/extract/ledger"

	"github.com/shopspring/decimal"
)

// A Set is several converted statements put together per account: a
// client's folder on the server, or the files of one `passbook extract`
// run. It says, per account, whether the statements follow each other
// (continuity), and its formats write every account's transactions over
// the whole period with the transactions two statements share counted
// once. Server and CLI both build it with NewSet, so the rules are written
// once, here.
type Set struct {
	// Sources are the documents, in the order given.
	Sources []Source
	// Accounts are the accounts the statements hold, ordered by IBAN or
	// number, then currency.
	Accounts []*SetAccount
}

// Source states, as the API names a document's.
const (
	SourceCompleted  = "completed"
	SourceProcessing = "processing"
	SourceFailed     = "failed"
)

// Source is one document of a set.
type Source struct {
	// ID names the document: its file_id, or in the CLI the file's path.
	ID string
	// Name is the document's file name, as people know it.
	Name string
	// Status is SourceCompleted, SourceProcessing or SourceFailed.
	Status string
	// Error says why a failed document failed.
	Error string
	// Result is a completed document's conversion (corrected, when a
	// person corrected it).
	Result *ledger.Result
	// SetAside says a person left the document out of the set (it stays
	// listed, as set aside, with who did it: SetAsideBy, SetAsideAt).
	SetAside   bool
	SetAsideBy string
	SetAsideAt time.Time
}

// Set statuses.
const (
	// SetContinuous: every statement reconciles (ok) and none of the
	// findings below holds: the set is the accounts' whole history over
	// its period.
	SetContinuous = "continuous"
	// SetBroken: at least one finding (a gap, a balance break, an overlap
	// or a duplicate).
	SetBroken = "broken"
	// SetUnproven: no finding, but some statement is not ok (its own rows
	// are not proved) or some document could not be converted.
	SetUnproven = "unproven"
	// SetProcessing: some document is still being converted.
	SetProcessing = "processing"
	// SetEmpty: no documents.
	SetEmpty = "empty"
)

// Finding kinds.
const (
	// FindingGap: no statement covers some dates between two periods.
	FindingGap = "gap"
	// FindingBalanceBreak: a statement's opening balance is not the
	// balance the statement before it ends with.
	FindingBalanceBreak = "balance_break"
	// FindingOverlap: two statements cover the same dates; the
	// transactions both hold are counted once.
	FindingOverlap = "overlap"
	// FindingDuplicate: the same statement twice; it is counted once.
	FindingDuplicate = "duplicate"
)

// SetAccount is one account of a set: told apart by its number (an IBAN or
// another account number) and its currency.
type SetAccount struct {
	// Number is the account number as the first statement prints it; ""
	// when the statements print none.
	Number string
	// IBAN is the number without spaces when it is a valid IBAN, else
	// the IBAN a statement of the account prints beside its number.
	IBAN string
	// Currency is the ISO 4217 code, "" when not printed.
	Currency string
	// Statements are the account's statements in period order,
	// duplicates included (DuplicateOf says so).
	Statements []*SetStatement
	// Findings are what breaks the account's continuity, in date order.
	Findings []Finding

	key string
}

// SetStatement is one statement of one account: a document, or one
// account of a document that holds several.
type SetStatement struct {
	// SourceID and Name are the document's.
	SourceID, Name string
	// Start and End are the period: printed, or (when the statement
	// prints none) the first and last transaction's dates; nil when
	// neither is known.
	Start, End *time.Time
	// Opening is the printed opening balance, or the one the first row
	// implies; Closing the printed closing balance, or the last row's
	// balance. nil when the statement shows none.
	Opening, Closing *decimal.Decimal
	// Reconciliation is the status of the statement's own balance check.
	Reconciliation string
	// Transactions counts the account's rows in the statement.
	Transactions int
	// DuplicateOf is the SourceID of the statement this one repeats; ""
	// when it repeats none.
	DuplicateOf string
	// Bank and Holder are what the document names (extract.Statement's).
	Bank, Holder string
	// Integrity is the document's integrity report (nil for a result
	// converted before there were reports); Month is the signal that
	// this month's file is built unlike the account's months around it
	// (ledger.CompareMonths), nil when it is not.
	Integrity *ledger.Integrity
	Month     *ledger.Signal

	// printedStart and printedEnd say the period is printed, not taken
	// from the rows.
	printedStart, printedEnd bool
	b                        block
	// kept are the rows not already counted in an earlier statement (all
	// of them unless it overlaps one); keptOpening the balance before
	// them, keptStart the day they start from.
	kept        []row
	keptOpening decimal.Decimal
	keptStart   *time.Time
	order       int
}

// Finding is one break in an account's continuity.
type Finding struct {
	// Kind is FindingGap, FindingBalanceBreak, FindingOverlap or
	// FindingDuplicate.
	Kind string
	// SourceIDs name the statements concerned: the earlier first.
	SourceIDs []string
	// From and To are the dates concerned: for a gap the dates no
	// statement covers; for a balance break the end of the one statement
	// and the start of the next; for an overlap the dates both cover; for
	// a duplicate the repeated statement's period.
	From, To time.Time
	// Difference is, for a balance break, the opening balance less the
	// previous statement's closing balance; for a gap, the same across the
	// dates no statement covers (the money that moved in them), when both
	// balances are known. nil otherwise.
	Difference *decimal.Decimal
	// Common counts, for an overlap, the transactions both statements
	// hold (counted once).
	Common int
	// Blame is, for a balance break that one statement explains, that
	// statement's SourceID: it opens off from the statement before it by
	// Difference and the one after it opens off from it by as much the
	// other way, so its own balances are off, not its neighbours'.
	// SourceIDs are then the three statements, Blame in the middle.
	Blame string
	// Message says it in words.
	Message string
}

// NewSet puts sources together per account and finds what breaks each
// account's continuity.
//
// Accounts are told apart by their number (spaces, dashes, dots and
// slashes ignored, so "12-3456" and "12 3456" are one) and currency; a
// statement that names no currency joins the one account of its number
// that does, when there is exactly one. Each account of a document with
// several is a statement of its own.
//
// Sources set aside are left out. Per account, statements are taken in
// period order. The same statement twice (same period, balances and rows)
// is a duplicate, counted once: the one whose name sorts first counts
// (ChoiceRule), never the one that happened to be given or uploaded first.
// Between one statement and the next (the one reaching furthest so far):
// dates no statement covers are a gap; a next statement that starts
// within the previous one's period overlaps it, and the rows both hold
// (same date, amount and text) are counted once; a next statement that
// starts the day after, with an opening balance other than the previous
// closing balance, is a balance break. Where a boundary date is not
// printed but taken from the rows, days between the last and first rows
// are a gap only when the balance moved across them, and rows on a shared
// day overlap only when both statements hold them.
func NewSet(sources []Source) *Set {
	s := &Set{Sources: sources}
	// rank orders statements of the same period by name, then id: which
	// of two the same counts does not hang on the order they came in.
	byName := make([]int, len(sources))
	for i := range byName {
		byName[i] = i
	}
	sort.SliceStable(byName, func(i, j int) bool {
		a, b := sources[byName[i]], sources[byName[j]]
		if x, y := strings.TrimSuffix(a.Name, path.Ext(a.Name)), strings.TrimSuffix(b.Name, path.Ext(b.Name)); x != y {
			return x < y // "March" before "March (1)"
		}
		// Copies of one name are told apart by the order they came in
		// (a person cannot tell them apart either).
		return a.Name < b.Name
	})
	rank := make([]int, len(sources))
	for r, i := range byName {
		rank[i] = r
	}
	var stmts []*SetStatement
	for i, src := range sources {
		if src.SetAside || src.Status != SourceCompleted || src.Result == nil {
			continue
		}
		res := src.Result
		for _, b := range blocks(res) {
			for i := range b.rows {
				b.rows[i].source, b.rows[i].sourceName = src.ID, src.Name
			}
			st := &SetStatement{SourceID: src.ID, Name: src.Name, Reconciliation: b.status,
				Transactions: len(b.rows), b: b, order: rank[i], Bank: res.Statement.Bank, Holder: res.Statement.Holder, Integrity: res.Integrity}
			if b.start == nil && len(res.Statement.Accounts) > 0 {
				st.b.start = res.Statement.PeriodStart
			}
			if b.end == nil && len(res.Statement.Accounts) > 0 {
				st.b.end = res.Statement.PeriodEnd
			}
			st.printedStart, st.printedEnd = st.b.start != nil, st.b.end != nil
			if st.b.start != nil || len(b.rows) > 0 {
				d := st.b.startDate(time.Time{})
				st.Start = &d
			}
			if st.b.end != nil || len(b.rows) > 0 {
				d := st.b.endDate(time.Time{})
				st.End = &d
			}
			if b.opening != nil || len(b.rows) > 0 {
				o := b.openingBalance()
				st.Opening = &o
			}
			if c, ok := b.shownClosing(); ok {
				st.Closing = &c
			}
			switch {
			case st.Start != nil && st.End == nil:
				st.End = st.Start
			case st.End != nil && st.Start == nil:
				st.Start = st.End
			}
			stmts = append(stmts, st)
		}
	}
	s.group(stmts)
	for _, a := range s.Accounts {
		a.check()
	}
	return s
}

// AccountKey is an account number as accounts are told apart: upper
// case, without spaces, dashes, dots or slashes.
func AccountKey(number string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\u00a0', '-', '.', '/':
			return -1
		}
		return r
	}, strings.ToUpper(oneLine(number)))
}

// group puts statements into accounts.
func (s *Set) group(stmts []*SetStatement) {
	byKey := map[string]*SetAccount{}
	withCurrency := map[string][]*SetAccount{} // by number key
	add := func(st *SetStatement, key, currency string) {
		full := key + "\x00" + currency
		a, ok := byKey[full]
		if !ok {
			a = &SetAccount{Number: oneLine(st.b.number), IBAN: cmp.Or(ledger.IBAN(key), st.b.iban), Currency: currency, key: full}
			byKey[full] = a
			s.Accounts = append(s.Accounts, a)
			if currency != "" {
				withCurrency[key] = append(withCurrency[key], a)
			}
		}
		if a.IBAN == "" {
			a.IBAN = st.b.iban // printed beside the number in this month's statement
		}
		a.Statements = append(a.Statements, st)
	}
	var noCurrency []*SetStatement
	for _, st := range stmts {
		c := strings.ToUpper(strings.TrimSpace(st.b.currency))
		if c == "" {
			noCurrency = append(noCurrency, st)
			continue
		}
		add(st, AccountKey(st.b.number), c)
	}
	for _, st := range noCurrency {
		key := AccountKey(st.b.number)
		if as := withCurrency[key]; len(as) == 1 {
			add(st, key, as[0].Currency)
			continue
		}
		add(st, key, "")
	}
	sort.SliceStable(s.Accounts, func(i, j int) bool {
		a, b := s.Accounts[i], s.Accounts[j]
		if a.key == b.key {
			return false
		}
		// An account without a number goes last.
		if (a.Number == "") != (b.Number == "") {
			return b.Number == ""
		}
		return a.key < b.key
	})
}

// dayAfter is the calendar day after t.
func dayAfter(t time.Time) time.Time { return t.AddDate(0, 0, 1) }

// rowKey tells rows apart across statements: date, signed amount, text.
func rowKey(r row) string {
	return r.Date.Format(dateLayout) + "\x00" + signed(r.Transaction).StringFixed(2) + "\x00" + oneLine(r.Description)
}

// fingerprint is what makes two statements the same statement: period,
// balances and every row with its balance.
func (st *SetStatement) fingerprint() string {
	var b strings.Builder
	day := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.Format(dateLayout)
	}
	money := func(d *decimal.Decimal) string {
		if d == nil {
			return "-"
		}
		return d.StringFixed(2)
	}
	fmt.Fprintf(&b, "%s|%s|%s|%s|", day(st.Start), day(st.End), money(st.Opening), money(st.Closing))
	for _, r := range st.b.rows {
		b.WriteString(rowKey(r))
		b.WriteString("\x00" + r.Balance.StringFixed(2) + "\n")
	}
	return b.String()
}

// check sorts the account's statements and finds its breaks.
func (a *SetAccount) check() {
	sort.SliceStable(a.Statements, func(i, j int) bool {
		x, y := a.Statements[i], a.Statements[j]
		switch {
		case (x.Start == nil) != (y.Start == nil):
			return y.Start == nil
		case x.Start != nil && !x.Start.Equal(*y.Start):
			return x.Start.Before(*y.Start)
		case x.End != nil && y.End != nil && !x.End.Equal(*y.End):
			return x.End.Before(*y.End)
		}
		return x.order < y.order
	})
	seen := map[string]*SetStatement{}
	var cover *SetStatement // of the statements so far, the one reaching furthest
	counted := map[string]int{}
	for _, st := range a.Statements {
		fp := st.fingerprint()
		if first, ok := seen[fp]; ok {
			st.DuplicateOf = first.SourceID
			f := Finding{Kind: FindingDuplicate, SourceIDs: []string{first.SourceID, st.SourceID},
				Message: fmt.Sprintf("%s is the same statement as %s; it is counted once.", st.Name, first.Name)}
			if st.Start != nil {
				f.From, f.To = *st.Start, *st.End
			}
			a.Findings = append(a.Findings, f)
			continue
		}
		seen[fp] = st
		st.kept, st.keptStart = st.b.rows, st.Start
		if st.Opening != nil {
			st.keptOpening = *st.Opening
		}
		if st.Start == nil {
			continue // no date to place it by
		}
		if cover != nil {
			a.link(cover, st, counted)
		}
		for _, r := range st.kept {
			counted[rowKey(r)]++
		}
		if cover == nil || st.End.After(*cover.End) {
			cover = st
		}
	}
	sort.SliceStable(a.Findings, func(i, j int) bool { return a.Findings[i].From.Before(a.Findings[j].From) })
	a.blame()
	a.compareMonths()
}

// blame makes two balance breaks that one statement explains one finding
// that blames it: B opens d off from what A closes with, and C opens -d
// off from what B closes with, so A and C agree across B's own rows and B
// alone is off (a bank copy of B with wrong balances, say). Without it the
// second break would offer to remove the good C.
func (a *SetAccount) blame() {
	byID := map[string]*SetStatement{}
	for _, st := range a.Statements {
		byID[st.SourceID] = st
	}
	var out []Finding
	for i := 0; i < len(a.Findings); i++ {
		f := a.Findings[i]
		if i+1 < len(a.Findings) {
			g := a.Findings[i+1]
			if f.Kind == FindingBalanceBreak && g.Kind == FindingBalanceBreak && f.Difference != nil && g.Difference != nil &&
				f.SourceIDs[1] == g.SourceIDs[0] && f.Difference.Add(*g.Difference).IsZero() {
				first, mid, last := byID[f.SourceIDs[0]], byID[f.SourceIDs[1]], byID[g.SourceIDs[1]]
				out = append(out, Finding{Kind: FindingBalanceBreak, SourceIDs: []string{first.SourceID, mid.SourceID, last.SourceID},
					From: f.From, To: g.To, Difference: f.Difference, Blame: mid.SourceID,
					Message: fmt.Sprintf("%s is off by %s: it opens with %s where %s closes with %s, and %s opens with %s, where %s and the rows of %s lead.",
						mid.Name, f.Difference.StringFixed(2), mid.Opening.StringFixed(2), first.Name, first.Closing.StringFixed(2),
						last.Name, last.Opening.StringFixed(2), first.Name, mid.Name)})
				i++
				continue
			}
		}
		out = append(out, f)
	}
	a.Findings = out
}

// compareMonths sets each statement's Month: whether its file is built
// unlike the account's months around it. Duplicates take no part.
func (a *SetAccount) compareMonths() {
	var months []*SetStatement
	var profiles []*ledger.Profile
	for _, st := range a.Statements {
		if st.DuplicateOf != "" {
			continue
		}
		months = append(months, st)
		var p *ledger.Profile
		if st.Integrity != nil {
			p = st.Integrity.Profile
		}
		profiles = append(profiles, p)
	}
	for i, s := range ledger.CompareMonths(profiles) {
		months[i].Month = s
	}
}

// link checks how st follows prev, the statement reaching furthest before
// it, and trims from st the rows prev and those before it already count
// (counted holds their keys).
func (a *SetAccount) link(prev, st *SetStatement, counted map[string]int) {
	next := dayAfter(*prev.End)
	var diff *decimal.Decimal
	if prev.Closing != nil && st.Opening != nil {
		d := st.Opening.Sub(*prev.Closing)
		diff = &d
	}
	moved := diff != nil && !diff.IsZero()
	printed := prev.printedEnd && st.printedStart
	switch {
	case st.Start.After(next):
		// Days between the periods that no statement covers.
		if !printed && !moved {
			return // the dates come from rows, and no money moved between them
		}
		to := st.Start.AddDate(0, 0, -1)
		f := Finding{Kind: FindingGap, SourceIDs: []string{prev.SourceID, st.SourceID}, From: next, To: to, Difference: diff,
			Message: fmt.Sprintf("No statement covers %s to %s, between %s and %s", next.Format(dateLayout), to.Format(dateLayout), prev.Name, st.Name)}
		if moved {
			f.Message += fmt.Sprintf("; the balance moved by %s across it.", diff.StringFixed(2))
		} else {
			f.Message += "."
		}
		a.Findings = append(a.Findings, f)
	case st.Start.Before(next):
		// The periods overlap: rows in the common dates that earlier
		// statements hold are counted once, and the balance st opens
		// with must be the one prev reached before st's first day.
		to := *prev.End
		if st.End.Before(to) {
			to = *st.End
		}
		left := map[string]int{}
		for k, n := range counted {
			left[k] = n
		}
		var kept []row
		common := 0
		opening := st.keptOpening
		for _, r := range st.b.rows {
			k := rowKey(r)
			if !r.Date.After(to) && left[k] > 0 {
				left[k]--
				common++
				opening = opening.Add(signed(r.Transaction))
				continue
			}
			kept = append(kept, r)
		}
		if !printed && common == 0 {
			// The dates come from rows that share a day, and no row is in
			// both: the statements follow each other.
			a.balance(prev, st, diff)
			return
		}
		st.kept, st.keptOpening = kept, opening
		start := dayAfter(to)
		if len(kept) > 0 && kept[0].Date.Before(start) {
			start = kept[0].Date
		}
		st.keptStart = &start
		verb := "are"
		if common == 1 {
			verb = "is"
		}
		f := Finding{Kind: FindingOverlap, SourceIDs: []string{prev.SourceID, st.SourceID}, From: *st.Start, To: to, Common: common,
			Message: fmt.Sprintf("%s and %s both cover %s to %s; the %s both hold %s counted once.", prev.Name, st.Name,
				st.Start.Format(dateLayout), to.Format(dateLayout), plural(common, "transaction", "transactions"), verb)}
		a.Findings = append(a.Findings, f)
		// The balance at the start of st's first day, by prev's rows.
		if st.Opening != nil && prev.Opening != nil {
			bal := *prev.Opening
			for _, r := range prev.b.rows {
				if r.Date.Before(*st.Start) {
					bal = bal.Add(signed(r.Transaction))
				}
			}
			if d := st.Opening.Sub(bal); !d.IsZero() && prev.Reconciliation == ledger.ReconcileOK {
				a.Findings = append(a.Findings, Finding{Kind: FindingBalanceBreak, SourceIDs: []string{prev.SourceID, st.SourceID},
					From: *st.Start, To: *st.Start, Difference: &d,
					Message: fmt.Sprintf("%s opens on %s with %s, but %s has %s by then: a difference of %s.", st.Name,
						st.Start.Format(dateLayout), st.Opening.StringFixed(2), prev.Name, bal.StringFixed(2), d.StringFixed(2))})
			}
		}
	default:
		a.balance(prev, st, diff)
	}
}

// balance checks that st, which starts the day after prev ends, opens with
// prev's closing balance.
func (a *SetAccount) balance(prev, st *SetStatement, diff *decimal.Decimal) {
	if diff == nil || diff.IsZero() {
		return
	}
	a.Findings = append(a.Findings, Finding{Kind: FindingBalanceBreak, SourceIDs: []string{prev.SourceID, st.SourceID},
		From: *prev.End, To: *st.Start, Difference: diff,
		Message: fmt.Sprintf("%s opens with %s, but %s closes with %s: a difference of %s.", st.Name, st.Opening.StringFixed(2),
			prev.Name, prev.Closing.StringFixed(2), diff.StringFixed(2))})
}

// ChoiceRule says which statements a set counts when nobody has chosen.
const ChoiceRule = "Statements a person set aside are left out. Of a statement uploaded twice, the copy whose file name comes first in alphabetical order counts (March.pdf before March (1).pdf). " +
	"Where two statements cover the same days, the transactions both hold count once. " +
	"Each statement's rows keep the balances it prints, also where they break."

// plural is n with the word for one or for several.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Status is the set's standing: SetEmpty, SetProcessing, SetBroken,
// SetUnproven or SetContinuous.
func (s *Set) Status() string {
	if len(s.Sources) == 0 {
		return SetEmpty
	}
	unproven := false
	for _, src := range s.Sources {
		if src.SetAside {
			continue
		}
		switch src.Status {
		case SourceProcessing:
			return SetProcessing
		case SourceFailed:
			unproven = true
		}
	}
	for _, a := range s.Accounts {
		if len(a.Findings) > 0 {
			return SetBroken
		}
		for _, st := range a.Statements {
			if st.Reconciliation != ledger.ReconcileOK {
				unproven = true
			}
		}
	}
	if unproven || len(s.Accounts) == 0 {
		return SetUnproven
	}
	return SetContinuous
}

// Findings counts the findings of every account.
func (s *Set) Findings() int {
	n := 0
	for _, a := range s.Accounts {
		n += len(a.Findings)
	}
	return n
}

// Label is the account as people name it: its number as printed (or
// "unknown account") and its currency.
func (a *SetAccount) Label() string {
	n := a.Number
	if n == "" {
		n = "unknown account"
	}
	if a.Currency != "" {
		n += " " + a.Currency
	}
	return n
}

// Period is the first day of the account's first statement and the last of
// its last; nil when no statement has a date.
func (a *SetAccount) Period() (start, end *time.Time) {
	for _, st := range a.Statements {
		if st.Start != nil && (start == nil || st.Start.Before(*start)) {
			start = st.Start
		}
		if st.End != nil && (end == nil || st.End.After(*end)) {
			end = st.End
		}
	}
	return start, end
}

// counted are the account's statements that count: duplicates left out.
func (a *SetAccount) counted() []*SetStatement {
	var out []*SetStatement
	for _, st := range a.Statements {
		if st.DuplicateOf == "" {
			out = append(out, st)
		}
	}
	return out
}

// statementBlocks are, per statement that adds something (not a
// duplicate, and not wholly inside earlier ones), a block of the rows it
// counts: after an overlap, from the day after the common dates, opening
// with the balance after the rows counted before. Opening plus rows is its
// closing balance still.
func (a *SetAccount) statementBlocks() []block {
	var out []block
	for _, st := range a.counted() {
		b := st.b
		b.number, b.currency = a.displayNumber(st), a.Currency
		if len(st.kept) != len(st.b.rows) {
			if len(st.kept) == 0 && st.keptStart.After(*st.End) {
				continue // wholly inside earlier statements
			}
			o := st.keptOpening
			b.rows, b.opening, b.start = st.kept, &o, st.keptStart
			if b.start.After(*st.End) {
				e := *b.start
				b.end = &e
			}
		}
		out = append(out, b)
	}
	return out
}

// displayNumber is the number a statement format names the account by: as
// the statement prints it, or the account's.
func (a *SetAccount) displayNumber(st *SetStatement) string {
	if st.b.number != "" {
		return st.b.number
	}
	return a.Number
}

// merged is the account over the whole period as one block: the first
// statement's opening balance, every counted row in period order, the last
// statement's closing balance.
func (a *SetAccount) merged() block {
	b := block{number: a.Number, iban: a.IBAN, currency: a.Currency, merged: true}
	if a.IBAN != "" && a.Number == "" {
		b.number = a.IBAN
	}
	var last *SetStatement
	for _, st := range a.counted() {
		if b.opening == nil && st.Opening != nil && st.Start != nil {
			o := *st.Opening
			b.opening = &o
		}
		b.rows = append(b.rows, st.kept...)
		if st.End != nil && (last == nil || !st.End.Before(*last.End)) {
			last = st
		}
	}
	b.start, b.end = a.Period()
	if last != nil && last.Closing != nil {
		c := *last.Closing
		b.closing = &c
	}
	return b
}
