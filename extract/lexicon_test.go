package extract

import (
	"strings"
	"testing"

	"passbook/extract/source"
)

// lexiconCase is what one language's statements print, and what the rules
// must make of it.
type lexiconCase struct {
	headings map[string]colRole // heading text -> role
	opening  []string           // rows that seed the balance chain
	closing  []string           // rows that end it
	totals   []string           // sums: never transactions
	months   map[string]int     // month word -> month
	in, out  []string           // section titles
	card     []string           // words only a card statement prints
}

func checkLexicon(t *testing.T, c lexiconCase) {
	t.Helper()
	for h, want := range c.headings {
		if got := classifyLabel(h); got != want {
			t.Errorf("classifyLabel(%q) = %d, want %d", h, got, want)
		}
	}
	for _, list := range []struct {
		name    string
		texts   []string
		phrases []string
	}{{"opening", c.opening, vocab().opening}, {"closing", c.closing, vocab().closing}, {"totals", c.totals, vocab().totals}, {"card", c.card, vocab().card}} {
		for _, s := range list.texts {
			if !hasPhrase(foldLabel(s), list.phrases) {
				t.Errorf("%q is not read as %s", s, list.name)
			}
		}
	}
	for w, want := range c.months {
		if got := monthNames()[foldWord(strings.TrimSuffix(w, "."))]; got != want {
			t.Errorf("month %q = %d, want %d", w, got, want)
		}
	}
	for _, s := range c.in {
		if got := sectionDirection(s); got != 1 {
			t.Errorf("sectionDirection(%q) = %d, want 1", s, got)
		}
	}
	for _, s := range c.out {
		if got := sectionDirection(s); got != -1 {
			t.Errorf("sectionDirection(%q) = %d, want -1", s, got)
		}
	}
}

func TestLexiconEnglish(t *testing.T) {
	checkLexicon(t, lexiconCase{
		headings: map[string]colRole{"Date": roleDate, "Post Date": roleDate, "Trans. Date": roleTransDate, "Value Dt": roleValueDate,
			"Description": roleDesc, "Particulars": roleDesc, "Chq/Ref No.": roleRef, "Withdrawals": roleDebit, "Paid in": roleCredit,
			"Amount": roleAmount, "Balance": roleBalance, "Dr/Cr": roleDrCr, "Type": roleType},
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
		headings: map[string]colRole{"Buchungstag": roleDate, "Valuta": roleValueDate, "Verwendungszweck": roleDesc, "Soll": roleDebit,
			"Haben": roleCredit, "Betrag": roleAmount, "Saldo": roleBalance, "S/H": roleDrCr, "Kontostand": roleBalance},
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
		headings: map[string]colRole{"Date": roleDate, "Date de valeur": roleValueDate, "Libellé": roleDesc, "Débit": roleDebit,
			"Crédit": roleCredit, "Montant": roleAmount, "Solde": roleBalance},
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
		headings: map[string]colRole{"Fecha": roleDate, "Fecha valor": roleValueDate, "Concepto": roleDesc, "Cargos": roleDebit,
			"Abonos": roleCredit, "Importe": roleAmount, "Saldo": roleBalance},
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
		headings: map[string]colRole{"Data": roleDate, "Data valuta": roleValueDate, "Descrizione": roleDesc, "Dare": roleDebit,
			"Avere": roleCredit, "Importo": roleAmount, "Saldo": roleBalance},
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
		headings: map[string]colRole{"Datum": roleDate, "Rentedatum": roleValueDate, "Omschrijving": roleDesc, "Af": roleDebit,
			"Bij": roleCredit, "Bedrag": roleAmount, "Saldo": roleBalance},
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
		headings: map[string]colRole{"Data": roleDate, "Data valor": roleValueDate, "Descrição": roleDesc, "Débito": roleDebit,
			"Crédito": roleCredit, "Valor": roleAmount, "Saldo": roleBalance},
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
	for _, lx := range lexicons {
		for name, list := range map[string][]string{"sectionIn": lx.sectionIn, "sectionOut": lx.sectionOut, "balanceTitles": lx.balanceTitles,
			"opening": append(lx.opening, lx.balanceNames(lx.starts)...), "closing": append(lx.closing, lx.balanceNames(lx.ends)...), "totals": lx.totals, "account": lx.account, "period": lx.period,
			"currency": lx.currency, "card": lx.card, "posting": lx.posting, "totalIn": lx.sumsIn(), "totalOut": lx.sumsOut()} {
			if len(list) == 0 {
				t.Errorf("%s: %s is empty", lx.lang, name)
			}
		}
		for _, role := range []colRole{roleDate, roleDesc, roleBalance, roleDebit, roleCredit, roleAmount} {
			if len(lx.headings[role]) == 0 {
				t.Errorf("%s: no heading for role %d", lx.lang, role)
			}
		}
		found := false
		for _, tr := range monthLanguages() {
			if tr.Locale() != lx.lang {
				continue
			}
			found = true
			for m, names := range monthsOf(tr) {
				if len(names) == 0 {
					t.Errorf("%s: CLDR gives no name for month %d", lx.lang, m+1)
				}
			}
		}
		if !found {
			t.Errorf("%s: no CLDR month names for the language", lx.lang)
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
