package export

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"passbook/extract/ledger"
)

// SetJSON is what the folders API says of a set (GET /api/v1/folders/{id}),
// and, with each account's transactions, its JSON download.
type SetJSON struct {
	Status           string        `json:"status"`
	TransactionCount int           `json:"transaction_count"`
	Accounts         []AccountJSON `json:"accounts"`
}

// AccountJSON is one account of a set.
type AccountJSON struct {
	AccountNumber *string `json:"account_number"`
	IBAN          *string `json:"iban"`
	Currency      *string `json:"currency"`
	PeriodStart   *string `json:"period_start"`
	PeriodEnd     *string `json:"period_end"`
	// TransactionCount counts the account's transactions, those two
	// statements share once.
	TransactionCount int             `json:"transaction_count"`
	Statements       []StatementJSON `json:"statements"`
	Findings         []FindingJSON   `json:"findings"`
	// Year is the account's summary over the period, month by month.
	Year *YearJSON `json:"year"`
	// Transactions are, in the JSON download only, the account's
	// transactions over the whole period, each with its file_id.
	Transactions []jsonTransaction `json:"transactions,omitempty"`
}

// StatementJSON is one statement of an account.
type StatementJSON struct {
	FileID           string  `json:"file_id"`
	OriginalName     string  `json:"original_name"`
	PeriodStart      *string `json:"period_start"`
	PeriodEnd        *string `json:"period_end"`
	OpeningBalance   *string `json:"opening_balance"`
	ClosingBalance   *string `json:"closing_balance"`
	Reconciliation   string  `json:"reconciliation"`
	TransactionCount int     `json:"transaction_count"`
	// DuplicateOf is the file_id of the statement this one repeats.
	DuplicateOf *string `json:"duplicate_of"`
	// Bank and Holder are what the statement names, when it does.
	Bank   string `json:"bank,omitempty"`
	Holder string `json:"holder,omitempty"`
	// Integrity sums up the document's integrity report with the
	// folder's comparison of months; nil for a result converted before
	// there were reports.
	Integrity *StatementIntegrityJSON `json:"integrity,omitempty"`
}

// StatementIntegrityJSON is a folder statement's integrity: the worst
// severity of its signals ("" when it has none), the document's summary,
// and its medium and high signals, the comparison with the account's
// other months included.
type StatementIntegrityJSON struct {
	Worst   string          `json:"worst"`
	Summary string          `json:"summary"`
	Signals []ledger.Signal `json:"signals"`
}

func newStatementIntegrity(st *SetStatement) *StatementIntegrityJSON {
	if st.Integrity == nil && st.Month == nil {
		return nil
	}
	out := &StatementIntegrityJSON{Signals: []ledger.Signal{}}
	var all []ledger.Signal
	if st.Integrity != nil {
		out.Summary = st.Integrity.Summary
		all = st.Integrity.Signals
	}
	if st.Month != nil {
		all = append(slices.Clone(all), *st.Month)
		if ledger.SeverityRank(st.Integrity.Worst()) < ledger.SeverityRank(st.Month.Severity) {
			out.Summary = st.Month.Evidence
		}
	}
	for _, s := range all {
		if ledger.SeverityRank(s.Severity) >= ledger.SeverityRank(ledger.SeverityMedium) {
			out.Signals = append(out.Signals, s)
		}
		if ledger.SeverityRank(s.Severity) > ledger.SeverityRank(out.Worst) {
			out.Worst = s.Severity
		}
	}
	return out
}

// FindingJSON is one finding.
type FindingJSON struct {
	Kind       string   `json:"kind"`
	FileIDs    []string `json:"file_ids"`
	From       *string  `json:"from"`
	To         *string  `json:"to"`
	Difference *string  `json:"difference"`
	// CommonTransactions counts, for an overlap, the transactions both
	// statements hold.
	CommonTransactions int `json:"common_transactions,omitempty"`
	// Blame is, for a balance break one statement explains, that
	// statement's file_id (file_ids are then three: it is the middle).
	Blame   *string `json:"blame"`
	Message string  `json:"message"`
}

// JSON is the set as the folders API shows it, without transactions.
func (s *Set) JSON() SetJSON {
	return s.json(false)
}

func (s *Set) json(withTransactions bool) SetJSON {
	out := SetJSON{Status: s.Status(), Accounts: []AccountJSON{}}
	for _, a := range s.Accounts {
		start, end := a.Period()
		aj := AccountJSON{AccountNumber: text(a.Number), IBAN: text(a.IBAN), Currency: text(a.Currency),
			PeriodStart: date(start), PeriodEnd: date(end), Statements: []StatementJSON{}, Findings: []FindingJSON{}}
		for _, st := range a.Statements {
			sj := StatementJSON{FileID: st.SourceID, OriginalName: st.Name, PeriodStart: date(st.Start), PeriodEnd: date(st.End),
				OpeningBalance: money(st.Opening), ClosingBalance: money(st.Closing), Reconciliation: st.Reconciliation,
				TransactionCount: st.Transactions, DuplicateOf: text(st.DuplicateOf), Bank: st.Bank, Holder: st.Holder,
				Integrity: newStatementIntegrity(st)}
			aj.Statements = append(aj.Statements, sj)
		}
		for _, f := range a.Findings {
			fj := FindingJSON{Kind: f.Kind, FileIDs: f.SourceIDs, Difference: money(f.Difference), CommonTransactions: f.Common, Blame: text(f.Blame), Message: f.Message}
			if !f.From.IsZero() {
				fj.From, fj.To = date(&f.From), date(&f.To)
			}
			aj.Findings = append(aj.Findings, fj)
		}
		aj.Year = a.yearJSON()
		m := a.merged()
		aj.TransactionCount = len(m.rows)
		out.TransactionCount += len(m.rows)
		if withTransactions {
			aj.Transactions = make([]jsonTransaction, 0, len(m.rows))
			for _, r := range m.rows {
				jt := newJSONTransaction(r.Transaction)
				jt.FileID = r.source
				aj.Transactions = append(aj.Transactions, jt)
			}
		}
		out.Accounts = append(out.Accounts, aj)
	}
	return out
}

// setDocument is the JSON download of a set.
type setDocument struct {
	Success  bool   `json:"success"`
	FolderID string `json:"folder_id"`
	Name     string `json:"name"`
	SetJSON
}

// WriteSet writes every account of set in format f to w: each account's
// transactions over the whole period, the transactions two statements share
// counted once and duplicates left out.
//
//   - JSON: the folder as the API shows it, each account with its transactions;
//   - CSV: one file, with account, currency and file columns; with a profile,
//     the profile's columns (and Account last when there are several accounts);
//   - XLSX: a sheet per account and a Continuity sheet;
//   - OFX, QFX, QBO and QIF: one statement per account;
//   - CAMT.053 and MT940: one statement per source statement and account.
//
// opts.FileID is the set's id (the folder_id) and opts.OriginalName its name.
func WriteSet(w io.Writer, f Format, opts Options, set *Set) error {
	if err := Check(f, opts); err != nil {
		return err
	}
	if opts.Created.IsZero() {
		opts.Created = time.Now()
	}
	opts.Created = opts.Created.UTC().Truncate(time.Second)
	var merged, statements []block
	for _, a := range set.Accounts {
		merged = append(merged, a.merged())
		statements = append(statements, a.statementBlocks()...)
	}
	switch f {
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(setDocument{Success: true, FolderID: opts.FileID, Name: opts.OriginalName, SetJSON: set.json(true)}); err != nil {
			return fmt.Errorf("write json: %w", err)
		}
		return nil
	case CSV:
		if opts.Profile != "" {
			var rows []placed
			for i := range merged {
				for _, r := range merged[i].rows {
					rows = append(rows, placed{r, &merged[i]})
				}
			}
			return writeProfileCSV(w, opts.Profile, rows, len(merged) > 1)
		}
		return writeSetCSV(w, merged)
	case XLSX:
		return writeSetXLSX(w, opts, set, merged)
	case OFX:
		return writeOFX(w, ofxXML, opts, merged)
	case QFX, QBO:
		return writeOFX(w, ofxSGML, opts, merged)
	case QIF:
		return writeQIF(w, merged)
	case CAMT053:
		return writeCAMT(w, opts, statements)
	case MT940:
		return writeMT940(w, opts, statements)
	}
	return fmt.Errorf("write %q: %w", string(f), ErrFormat)
}

// setColumns are the columns of a set's CSV: the account, its currency,
// the API's CSV columns, and the file the row comes from.
var setColumns = append(append([]string{"account", "currency"}, columns...), "file")

// writeSetCSV writes every account's rows as one RFC 4180 CSV.
func writeSetCSV(w io.Writer, merged []block) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.Write(setColumns); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	for _, b := range merged {
		for _, r := range b.rows {
			rec := []string{textCell(b.number), b.currency, r.Date.Format(dateLayout), r.Type(), textCell(r.Description),
				csvMoney(money(r.AmountIn)), csvMoney(money(r.AmountOut)), r.Balance.StringFixed(2), textCell(r.sourceName)}
			if err := cw.Write(rec); err != nil {
				return fmt.Errorf("write csv: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// continuitySheet is the set workbook's sheet of statements and findings.
const continuitySheet = "Continuity"

// fileHeader heads a set sheet's last column: the file a row comes from.
const fileHeader = "File"

// writeSetXLSX writes a workbook with a sheet of transactions per account
// (as a statement's Transactions sheet, plus the file each row comes from)
// and a Continuity sheet: the set's status, every statement with its
// period, balances and reconciliation, and every finding.
func writeSetXLSX(w io.Writer, opts Options, set *Set, merged []block) error {
	var wb workbook
	st := theStyles
	names := sheetNames(set)
	for i, b := range merged {
		txs := make([]ledger.Transaction, len(b.rows))
		for j, r := range b.rows {
			txs[j] = r.Transaction
		}
		rows := b.rows
		if err := writeRowsSheet(wb.addSheet(names[i]), st, txs, fileHeader, func(j int) string { return rows[j].sourceName }); err != nil {
			return fmt.Errorf("write xlsx: %w", err)
		}
	}
	if err := writeContinuitySheet(wb.addSheet(continuitySheet), st, opts, set); err != nil {
		return fmt.Errorf("write xlsx: %w", err)
	}
	if len(set.Accounts) > 0 {
		if err := writeYearSheet(wb.addSheet(yearSheet), st, set); err != nil {
			return fmt.Errorf("write xlsx: %w", err)
		}
	}
	return wb.write(w)
}

// sheetNames names a sheet per account after it: at most 31 characters
// (the last ones, which tell accounts apart), none of []:*?/\, each once.
func sheetNames(set *Set) []string {
	used := map[string]bool{strings.ToLower(continuitySheet): true, strings.ToLower(yearSheet): true}
	var out []string
	for i, a := range set.Accounts {
		n := strings.Map(func(r rune) rune {
			if strings.ContainsRune(`[]:*?/\`, r) {
				return '-'
			}
			return r
		}, a.Label())
		n = strings.Trim(n, "'")
		if r := []rune(n); len(r) > 31 {
			n = string(r[len(r)-31:])
		}
		for k := 2; n == "" || used[strings.ToLower(n)]; k++ {
			suffix := " (" + strconv.Itoa(k) + ")"
			base := []rune(strings.TrimSpace(a.Label()))
			if len(base) > 31-len(suffix) {
				base = base[len(base)-(31-len(suffix)):]
			}
			n = string(base) + suffix
			if strings.TrimSpace(string(base)) == "" {
				n = "Account " + strconv.Itoa(i+1)
			}
		}
		used[strings.ToLower(n)] = true
		out = append(out, n)
	}
	return out
}

// writeContinuitySheet writes the set's standing, statements and findings.
func writeContinuitySheet(sh *worksheet, st xlsxStyles, opts Options, set *Set) error {
	cs := st.row(false)
	name := opts.OriginalName
	if name == "" {
		name = opts.FileID
	}
	rows := [][]any{
		{label("Folder"), textValue(cs, name)},
		{label("Status"), textValue(cs, set.Status())},
		{label("Findings"), set.Findings()},
		{label("Chosen"), textValue(cs, ChoiceRule)},
		nil,
		{label("Account"), label("Currency"), label("File"), label("Period start"), label("Period end"), label("Opening balance"),
			label("Closing balance"), label("Reconciliation"), label("Transactions"), label("Duplicate of"), label("Counted")},
	}
	names := map[string]string{}
	for _, src := range set.Sources {
		names[src.ID] = src.Name
	}
	for _, a := range set.Accounts {
		for _, s := range a.Statements {
			counted := "yes"
			if s.DuplicateOf != "" {
				counted = "no: the same as " + names[s.DuplicateOf] + ", which counts by the rule above"
			}
			rows = append(rows, []any{textValue(cs, a.Number), textValue(cs, a.Currency), textValue(cs, s.Name),
				optDateCell(st.date, s.Start), optDateCell(st.date, s.End), moneyCell(st.money, s.Opening), moneyCell(st.money, s.Closing),
				textValue(cs, s.Reconciliation), s.Transactions, textValue(cs, names[s.DuplicateOf]), textValue(cs, counted)})
		}
	}
	// What a person set aside, and who: left out of every sheet but this.
	var aside [][]any
	for _, src := range set.Sources {
		if src.SetAside {
			by := src.SetAsideBy
			if by == "" {
				by = "unknown"
			}
			var on any
			if !src.SetAsideAt.IsZero() {
				on = dateCell(st.date, src.SetAsideAt)
			}
			aside = append(aside, []any{textValue(cs, src.Name), textValue(cs, by), on})
		}
	}
	if len(aside) > 0 {
		rows = append(rows, nil, []any{label("Set aside"), label("By"), label("On")})
		rows = append(rows, aside...)
	}
	rows = append(rows, nil, []any{label("Account"), label("Currency"), label("Finding"), label("From"), label("To"),
		label("Difference"), label("Files"), label("Message")})
	for _, a := range set.Accounts {
		for _, fd := range a.Findings {
			files := make([]string, len(fd.SourceIDs))
			for i, id := range fd.SourceIDs {
				files[i] = names[id]
			}
			var from, to any
			if !fd.From.IsZero() {
				from, to = dateCell(st.date, fd.From), dateCell(st.date, fd.To)
			}
			rows = append(rows, []any{textValue(cs, a.Number), textValue(cs, a.Currency), textValue(cs, fd.Kind), from, to,
				moneyCell(st.money, fd.Difference), textValue(cs, strings.Join(files, ", ")), textValue(cs, fd.Message)})
		}
	}
	var failed []string
	for _, src := range set.Sources {
		if src.Status == SourceFailed && !src.SetAside {
			failed = append(failed, src.Name+": "+src.Error)
		}
	}
	if len(failed) > 0 {
		rows = append(rows, nil, []any{label("Not converted"), textValue(cs, strings.Join(failed, "; "))})
	}
	sh.widths = []colWidth{{1, 1, 30}, {2, 7, 16}, {8, 11, 40}}
	return writeCells(sh, rows)
}

// WriteReport writes the set's continuity in words, a line per account
// and one per finding, for a person at a terminal:
//
//	2 accounts, 18 statements: broken (1 finding)
//	DE89 3704 0044 0532 0130 00 EUR: 12 statements, 2024-01-01 to 2024-12-31
//	  gap 2024-05-01 to 2024-05-31: No statement covers ...
//	12-3456-7890 GBP: 6 statements, 2024-01-01 to 2024-06-30: continuous
func (s *Set) WriteReport(w io.Writer) error {
	bw := bufio.NewWriter(w)
	n := 0
	for _, a := range s.Accounts {
		n += len(a.Statements)
	}
	status := s.Status()
	if k := s.Findings(); k > 0 {
		status += " (" + plural(k, "finding", "findings") + ")"
	}
	fmt.Fprintf(bw, "%s, %s: %s\n", plural(len(s.Accounts), "account", "accounts"), plural(n, "statement", "statements"), status)
	for _, a := range s.Accounts {
		fmt.Fprintf(bw, "%s: %s", a.Label(), plural(len(a.Statements), "statement", "statements"))
		if start, end := a.Period(); start != nil {
			fmt.Fprintf(bw, ", %s to %s", start.Format(dateLayout), end.Format(dateLayout))
		}
		notOK := 0
		for _, st := range a.Statements {
			if st.Reconciliation != ledger.ReconcileOK {
				notOK++
			}
		}
		switch {
		case len(a.Findings) == 0 && notOK == 0:
			bw.WriteString(": continuous\n")
		case len(a.Findings) == 0:
			fmt.Fprintf(bw, ": no gaps, but %s not ok\n", plural(notOK, "statement is", "statements are"))
		default:
			bw.WriteString("\n")
		}
		for _, f := range a.Findings {
			fmt.Fprintf(bw, "  %s", f.Kind)
			if !f.From.IsZero() {
				fmt.Fprintf(bw, " %s to %s", f.From.Format(dateLayout), f.To.Format(dateLayout))
			}
			fmt.Fprintf(bw, ": %s\n", f.Message)
		}
		for _, st := range a.Statements {
			if st.Reconciliation != ledger.ReconcileOK && st.DuplicateOf == "" {
				fmt.Fprintf(bw, "  %s: %s\n", st.Name, st.Reconciliation)
			}
		}
	}
	s.writeIntegrity(bw)
	for _, src := range s.Sources {
		if src.Status == SourceFailed && !src.SetAside {
			fmt.Fprintf(bw, "not converted: %s: %s\n", src.Name, src.Error)
		}
	}
	return bw.Flush()
}

// writeIntegrity writes the integrity line of the report: how many
// statements show signs of alteration (medium or high signals, or a month
// built unlike the account's months around it), then a line for each.
func (s *Set) writeIntegrity(w io.Writer) {
	var lines []string
	n, reported := 0, 0
	for _, a := range s.Accounts {
		for _, st := range a.Statements {
			if st.DuplicateOf != "" {
				continue
			}
			n++
			if st.Integrity != nil {
				reported++
			}
			var why []string
			if st.Integrity != nil && strongSignal(st.Integrity.Signals) {
				why = append(why, st.Integrity.Summary)
			}
			if st.Month != nil {
				why = append(why, st.Month.Evidence)
			}
			if len(why) > 0 {
				lines = append(lines, fmt.Sprintf("  %s: %s", st.Name, strings.Join(why, "; ")))
			}
		}
	}
	switch {
	case reported == 0:
		return
	case len(lines) == 0:
		fmt.Fprintf(w, "integrity: no sign of alteration found in %s\n", plural(n, "statement", "statements"))
	default:
		verb := "show"
		if len(lines) == 1 {
			verb = "shows"
		}
		fmt.Fprintf(w, "integrity: %d of %s %s signs of alteration\n", len(lines), plural(n, "statement", "statements"), verb)
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
}

// strongSignal is whether any signal is medium or high.
func strongSignal(signals []ledger.Signal) bool {
	for _, sg := range signals {
		if ledger.SeverityRank(sg.Severity) >= ledger.SeverityRank(ledger.SeverityMedium) {
			return true
		}
	}
	return false
}
