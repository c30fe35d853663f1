package extract

import (
	"strings"
	"testing"

	"passbook/extract/cells"
	"passbook/extract/lexicon"
	"passbook/extract/source"
	"passbook/extract/tables"
)

// lexiconCase is what one language's statements print, and what the rules
// must make of it.
type lexiconCase struct {
	headings map[string]lexicon.ColRole // heading text -> role
	opening  []string                   // rows that seed the balance chain
	closing  []string                   // rows that end it
	totals   []string                   // sums: never transactions
	months   map[string]int             // month word -> month
	in, out  []string                   // section titles
	card     []string                   // words only a card statement prints
}

func checkLexicon(t *testing.T, c lexiconCase) {
	t.Helper()
	for h, want := range c.headings {
		if got := lexicon.ClassifyLabel(h); got != want {
			t.Errorf("classifyLabel(%q) = %d, want %d", h, got, want)
		}
	}
	for _, list := range []struct {
		name    string
		texts   []string
		phrases []string
	}{{"opening", c.opening, lexicon.Vocab().Opening}, {"closing", c.closing, lexicon.Vocab().Closing}, {"totals", c.totals, lexicon.Vocab().Totals}, {"card", c.card, lexicon.Vocab().Card}} {
		for _, s := range list.texts {
			if !lexicon.HasPhrase(lexicon.FoldLabel(s), list.phrases) {
				t.Errorf("%q is not read as %s", s, list.name)
			}
		}
	}
	for w, want := range c.months {
		if got := cells.MonthNames()[cells.FoldWord(strings.TrimSuffix(w, "."))]; got != want {
			t.Errorf("month %q = %d, want %d", w, got, want)
		}
	}
	for _, s := range c.in {
		if got := tables.SectionDirection(s); got != 1 {
			t.Errorf("sectionDirection(%q) = %d, want 1", s, got)
		}
	}
	for _, s := range c.out {
		if got := tables.SectionDirection(s); got != -1 {
			t.Errorf("sectionDirection(%q) = %d, want -1", s, got)
		}
	}
}

func TestLexiconEnglish(t *testing.T) {
	checkLexicon(t, lexiconCase{
		headings: map[string]lexicon.ColRole{"Date": lexicon.RoleDate, "Post Date": lexicon.RoleDate, "Trans. Date": lexicon.RoleTransDate, "Value Dt": lexicon.RoleValueDate,
			"Description": lexicon.RoleDesc, "Particulars": lexicon.RoleDesc, "Chq/Ref No.": lexicon.RoleRef, "Withdrawals": lexicon.RoleDebit, "Paid in": lexicon.RoleCredit,
			"Amount": lexicon.RoleAmount, "Balance": lexicon.RoleBalance, "Dr/Cr": lexicon.RoleDrCr, "Type": lexicon.RoleType},
		opening: []string{"Balance B/F", "Opening balance", "BALANCE BROUGHT FORWARD", "Previous balance"},
		closing: []string{"Closing balance", "Balance carried forward", "New Balance"},
		totals:  []string{"Totals", "Sub-total", "Interest rate"},
		months:  map[string]int{"Jan": 1, "Sept": 9, "December": 12},
		in:      []string{"Deposits and other credits"},
		out:     []string{"Withdrawals and other debits", "Checks paid"},
		card:    []string{"Credit limit $5,000.00", "Minimum payment due"},
	})
}

func TestLexiconGerman(t *testing.T) {
	checkLexicon(t, lexiconCase{
		headings: map[string]lexicon.ColRole{"Buchungstag": lexicon.RoleDate, "Valuta": lexicon.RoleValueDate, "Verwendungszweck": lexicon.RoleDesc, "Soll": lexicon.RoleDebit,
			"Haben": lexicon.RoleCredit, "Betrag": lexicon.RoleAmount, "Saldo": lexicon.RoleBalance, "S/H": lexicon.RoleDrCr, "Kontostand": lexicon.RoleBalance},
		opening: []string{"Alter Kontostand", "Alter Saldo", "Anfangssaldo", "Saldovortrag"},
		closing: []string{"Neuer Kontostand", "Endsaldo"},
		totals:  []string{"Summe", "Zwischensumme"},
		months:  map[string]int{"März": 3, "Mai": 5, "Dez": 12},
		in:      []string{"Gutschriften"},
		out:     []string{"Lastschriften"},
		card:    []string{"Kreditrahmen", "Kartenlimit"},
	})
}

func TestLexiconFrench(t *testing.T) {
	checkLexicon(t, lexiconCase{
		headings: map[string]lexicon.ColRole{"Date": lexicon.RoleDate, "Date de valeur": lexicon.RoleValueDate, "Libellé": lexicon.RoleDesc, "Débit": lexicon.RoleDebit,
			"Crédit": lexicon.RoleCredit, "Montant": lexicon.RoleAmount, "Solde": lexicon.RoleBalance},
		opening: []string{"Solde précédent", "Ancien solde", "Report"},
		closing: []string{"Nouveau solde", "Solde à reporter"},
		totals:  []string{"Total des opérations"},
		months:  map[string]int{"févr": 2, "août": 8, "décembre": 12},
		in:      []string{"Versements"},
		out:     []string{"Prélèvements"},
		card:    []string{"Limite de crédit", "Paiement minimum"},
	})
}

func TestLexiconSpanish(t *testing.T) {
	checkLexicon(t, lexiconCase{
		headings: map[string]lexicon.ColRole{"Fecha": lexicon.RoleDate, "Fecha valor": lexicon.RoleValueDate, "Concepto": lexicon.RoleDesc, "Cargos": lexicon.RoleDebit,
			"Abonos": lexicon.RoleCredit, "Importe": lexicon.RoleAmount, "Saldo": lexicon.RoleBalance},
		opening: []string{"Saldo anterior", "Saldo inicial"},
		closing: []string{"Saldo final"},
		totals:  []string{"Totales"},
		months:  map[string]int{"enero": 1, "dic": 12, "setiembre": 9},
		in:      []string{"Abonos"},
		out:     []string{"Cargos"},
		card:    []string{"Límite de crédito", "Pago mínimo"},
	})
}

func TestLexiconItalian(t *testing.T) {
	checkLexicon(t, lexiconCase{
		headings: map[string]lexicon.ColRole{"Data": lexicon.RoleDate, "Data valuta": lexicon.RoleValueDate, "Descrizione": lexicon.RoleDesc, "Dare": lexicon.RoleDebit,
			"Avere": lexicon.RoleCredit, "Importo": lexicon.RoleAmount, "Saldo": lexicon.RoleBalance},
		opening: []string{"Saldo iniziale", "Saldo precedente"},
		closing: []string{"Saldo finale"},
		totals:  []string{"Totale"},
		months:  map[string]int{"gennaio": 1, "lug": 7, "dicembre": 12},
		in:      []string{"Accrediti"},
		out:     []string{"Addebiti"},
		card:    []string{"Limite di credito", "Pagamento minimo"},
	})
}

func TestLexiconDutch(t *testing.T) {
	checkLexicon(t, lexiconCase{
		headings: map[string]lexicon.ColRole{"Datum": lexicon.RoleDate, "Rentedatum": lexicon.RoleValueDate, "Omschrijving": lexicon.RoleDesc, "Af": lexicon.RoleDebit,
			"Bij": lexicon.RoleCredit, "Bedrag": lexicon.RoleAmount, "Saldo": lexicon.RoleBalance},
		opening: []string{"Beginsaldo", "Vorig saldo"},
		closing: []string{"Eindsaldo", "Nieuw saldo"},
		totals:  []string{"Totaal"},
		months:  map[string]int{"maart": 3, "mei": 5, "okt": 10},
		in:      []string{"Bijschrijvingen"},
		out:     []string{"Afschrijvingen"},
		card:    []string{"Kredietlimiet", "Minimaal te betalen"},
	})
}

func TestLexiconPortuguese(t *testing.T) {
	checkLexicon(t, lexiconCase{
		headings: map[string]lexicon.ColRole{"Data": lexicon.RoleDate, "Data valor": lexicon.RoleValueDate, "Descrição": lexicon.RoleDesc, "Débito": lexicon.RoleDebit,
			"Crédito": lexicon.RoleCredit, "Valor": lexicon.RoleAmount, "Saldo": lexicon.RoleBalance},
		opening: []string{"Saldo anterior"},
		closing: []string{"Saldo atual"},
		totals:  []string{"Total"},
		months:  map[string]int{"março": 3, "out": 10, "dezembro": 12},
		in:      []string{"Créditos"},
		out:     []string{"Débitos"},
		card:    []string{"Limite de crédito", "Pagamento mínimo"},
	})
}

// Every lexicon fills every list, so no language is silently missing a rule.
func TestLexiconsComplete(t *testing.T) {
	for _, lx := range lexicon.Lexicons {
		for name, list := range map[string][]string{"sectionIn": lx.SectionIn, "sectionOut": lx.SectionOut, "balanceTitles": lx.BalanceTitles,
			"opening": append(lx.Opening, lx.BalanceNames(lx.Starts)...), "closing": append(lx.Closing, lx.BalanceNames(lx.Ends)...), "totals": lx.Totals, "account": lx.Account, "period": lx.Period,
			"currency": lx.Currency, "card": lx.Card, "posting": lx.Posting, "totalIn": lx.SumsIn(), "totalOut": lx.SumsOut()} {
			if len(list) == 0 {
				t.Errorf("%s: %s is empty", lx.Lang, name)
			}
		}
		for _, role := range []lexicon.ColRole{lexicon.RoleDate, lexicon.RoleDesc, lexicon.RoleBalance, lexicon.RoleDebit, lexicon.RoleCredit, lexicon.RoleAmount} {
			if len(lx.Headings[role]) == 0 {
				t.Errorf("%s: no heading for role %d", lx.Lang, role)
			}
		}
		found := false
		for _, tr := range cells.MonthLanguages() {
			if tr.Locale() != lx.Lang {
				continue
			}
			found = true
			for m, names := range cells.MonthsOf(tr) {
				if len(names) == 0 {
					t.Errorf("%s: CLDR gives no name for month %d", lx.Lang, m+1)
				}
			}
		}
		if !found {
			t.Errorf("%s: no CLDR month names for the language", lx.Lang)
		}
	}
}

// A balance title beside a word for the start or the end of the period
// names the opening or the closing balance, in phrasings no list holds:
// a table with no balance column counts its balances back from "Saldo
// einde periode", and forward from "Saldo al inicio".
func TestComposedBalanceNames(t *testing.T) {
	page := func(label, amount string) source.Page {
		return synthPage(1,
			[]cellAt{at(10, label), rat(300, amount)},
			nil,
			[]cellAt{at(10, "Boekdatum"), at(90, "Omschrijving"), rat(400, "Af"), rat(480, "Bij")},
			[]cellAt{at(10, "01-06-2023"), at(90, "Albert Heijn"), rat(400, "185,41")},
			[]cellAt{at(10, "03-06-2023"), at(90, "Salaris"), rat(480, "1.874,61")},
		)
	}
	want := []string{
		"2023-06-01|Albert Heijn||185.41|7128.13",
		"2023-06-03|Salaris|1874.61||9002.74",
	}
	res := Analyze([]source.Page{page("Saldo einde periode", "9.002,74")})
	checkTxs(t, res, want)
	if c := res.Statement.ClosingBalance; c == nil || c.String() != "9002.74" {
		t.Errorf("closing balance %v, want 9002.74", c)
	}
	res = Analyze([]source.Page{page("Saldo al inicio", "7.313,54")})
	checkTxs(t, res, want)
	if o := res.Statement.OpeningBalance; o == nil || o.String() != "7313.54" {
		t.Errorf("opening balance %v, want 7313.54", o)
	}
}
