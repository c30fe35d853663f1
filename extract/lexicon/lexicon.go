package lexicon

import (
	"slices"
	"strings"
	"sync"

	"passbook/extract/source"
)

// lexicon is one language's words for what a statement prints. Every rule
// that reads words reads them from here, through vocab; nothing else in the
// package spells a word of any language.
//
// Phrases are written folded as foldLabel folds text: lower case, accents
// dropped, punctuation as spaces ("b/f" is "b f"). A phrase matches whole
// words.
type Lexicon struct {
	Lang string
	// headings names the column headings by role. Across languages, roles
	// are tried in headingOrder, so a heading that holds phrases of two
	// roles ("Value date") takes the more specific one.
	Headings map[ColRole][]string
	// sectionIn and sectionOut are titles over a table of money in (out).
	SectionIn, SectionOut []string
	// cardSectionIn and cardSectionOut are the titles of a card
	// statement's sections of money in (payments to the card, refunds)
	// and out (purchases, fees, interest).
	cardSectionIn, cardSectionOut []string
	// sectionTitles are titles of a kind of rows that say no direction
	// for every statement ("Other transactions"); a card's section titles
	// are titles too.
	sectionTitles []string
	// balanceTitles are titles over a list of balances, not movements.
	BalanceTitles []string
	// opening and closing name the balance before and after the period,
	// on a row of the table or in a summary box.
	Opening, Closing []string
	// starts and ends are the words that, beside one of balanceTitles,
	// make a name of the opening or the closing balance the lists above
	// may not hold ("saldo einde periode", "saldo al inicio"), joined to
	// it directly or by one of links.
	Starts, Ends, links []string
	// totals name sums of columns, and rates the lines of rate tables:
	// never transactions.
	Totals, Rates []string
	// totalIn and totalOut label the printed sums of money in and out
	// that are not a sum's word joined to a word for money in (out): see
	// sumsOf.
	TotalIn, TotalOut []string
	// stats are figures about the balance over the period (average,
	// minimum): never transactions.
	stats []string
	// account, period and currency label the statement's own facts.
	Account, Period, Currency []string
	// posting are the date headings that name the day the bank booked a
	// row, as against the day it happened: beside another date heading
	// ("Data operazione | Data contabile"), theirs is the row's date.
	Posting []string
	// indicatorOut and indicatorIn are the words a Dr/Cr indicator column
	// prints for money out and in ("Af" and "Bij", "S" and "H").
	indicatorOut, indicatorIn []string
	// card are words only a credit-card statement prints. Not "credit
	// card" itself: a bank account's rows name card payments; but a title
	// that says the statement is a card's.
	Card []string
}

// headingOrder is the order roles are tried in: the most specific first.
var headingOrder = []ColRole{RoleValueDate, RoleTransDate, RoleDrCr, RoleCount, RoleBalance, RoleDebit, RoleCredit, RoleAmount, RoleDate, RoleType, RoleRef, RoleDesc}

var Lexicons = []Lexicon{English, german, french, spanish, italian, dutch, portuguese}

var English = Lexicon{
	Lang: "en",
	Headings: map[ColRole][]string{
		RoleValueDate: {"value date", "value dt", "val date"},
		RoleTransDate: {"trans date", "transaction date", "txn date", "tran date", "trx date", "date of transaction", "purchase date", "card date", "activity date", "sale date"},
		RoleDrCr:      {"dr cr", "cr dr", "d c", "c d", "debit credit indicator"},
		RoleCount:     {"points", "reward points", "bonus points", "pts", "miles", "units", "quantity", "qty"},
		RoleBalance:   {"balance", "running balance", "ledger balance"},
		RoleDebit:     {"paid out", "money out", "amount out", "withdrawal", "withdrawals", "withdraw", "debit", "debits", "payments", "payment", "out", "dr", "spent", "charges", "charge", "outgoing", "outgoings"},
		RoleCredit:    {"paid in", "money in", "amount in", "deposit", "deposits", "credit", "credits", "receipts", "in", "cr", "received", "incoming"},
		RoleAmount:    {"amount", "amt", "sum", "transaction amount"},
		RoleDate:      {"post date", "posting date", "posted", "booking date", "book date", "date", "dt", "posted date", "date posted"},
		RoleType:      {"type", "tran type", "transaction type", "code"},
		RoleRef:       {"chq", "cheque", "check no", "check number", "cheque number", "check", "serial no", "ref", "reference", "ref no", "doc no", "document"},
		RoleDesc:      {"transaction details", "transaction description", "description", "details", "detail", "particulars", "narration", "narrative", "memo", "payee", "text", "merchant", "transaction", "transactions"},
	},
	SectionIn:      []string{"deposit", "deposits", "credit", "credits", "paid in", "money in", "receipts"},
	cardSectionIn:  []string{"payments", "payments and credits", "payments and other credits", "credits", "refunds", "payments received"},
	cardSectionOut: []string{"purchases", "purchases and adjustments", "fees", "fees charged", "interest", "interest charged", "cash advances"},
	sectionTitles:  []string{"other transactions", "account activity", "transactions", "transaction details", "adjustments"},
	SectionOut:     []string{"withdrawal", "withdrawals", "debit", "debits", "paid out", "money out", "payments", "checks paid", "cheques paid"},
	BalanceTitles:  []string{"balance", "balances"},
	Starts:         []string{"opening", "starting", "beginning", "previous", "initial", "start"},
	Ends:           []string{"closing", "ending", "end", "final", "new", "current"},
	links:          []string{"at", "of", "as at"},
	Opening:        []string{"brought forward", "b f", "bal b f", "balance b f", "balance brought forward", "balance forward", "opening bal", "last month s balance", "last statement balance", "previous statement balance", "balance from last statement", "balance from previous statement"},
	Closing:        []string{"carried forward", "c f", "balance carried", "balance carried forward", "closing bal", "statement balance"},
	Totals:         []string{"total", "totals", "subtotal"},
	Rates:          []string{"interest rate"},
	TotalIn:        []string{"payments and credits", "deposits and other credits", "deposits and additions"},
	TotalOut:       []string{"purchases and debits", "withdrawals and other debits"},
	stats:          []string{"average balance", "average daily balance", "avg balance", "avg daily balance", "minimum balance", "maximum balance", "lowest balance", "highest balance", "mean balance", "average credit balance", "average debit balance", "average collected balance", "average ledger balance", "minimum daily balance", "lowest daily balance"},
	Account:        []string{"account number", "account no", "account nr", "account", "acct number", "acct no", "acct", "a c no", "a c", "iban", "card number"},
	Period:         []string{"period", "statement", "from", "between", "to", "through", "thru"},
	Currency:       []string{"currency"},
	Posting:        []string{"post date", "posting date", "posted", "posted date", "date posted", "booking date", "book date"},
	indicatorOut:   []string{"dr", "d", "db", "debit"},
	indicatorIn:    []string{"cr", "c", "credit"},
	Card:           []string{"credit card statement", "card statement", "credit limit", "minimum payment", "minimum payment due", "minimum amount due", "payment due date", "available credit", "cash advance limit", "cash advances", "purchases"},
}

var german = Lexicon{
	Lang: "de",
	Headings: map[ColRole][]string{
		RoleValueDate: {"valuta", "wertstellung", "wert", "valutadatum"},
		RoleDrCr:      {"s h", "soll haben"},
		RoleCount:     {"punkte", "bonuspunkte", "einheiten", "anzahl", "menge"},
		RoleBalance:   {"saldo", "kontostand"},
		RoleDebit:     {"soll", "lastschrift", "belastung", "ausgang", "ausgange", "abbuchung", "auszahlung"},
		RoleCredit:    {"haben", "gutschrift", "eingang", "eingange", "einzahlung"},
		RoleAmount:    {"betrag", "umsatz"},
		RoleDate:      {"buchungstag", "buchungsdatum", "buchung", "datum"},
		RoleType:      {"typ", "art", "umsatzart", "buchungsart", "gvc"},
		RoleRef:       {"referenz", "belegnr", "beleg nr", "scheck nr", "schecknummer"},
		RoleTransDate: {"belegdatum", "umsatztag", "kaufdatum"},
		RoleDesc:      {"verwendungszweck", "vorgang", "buchungstext", "text", "beschreibung", "erlauterung"},
	},
	SectionIn:     []string{"gutschrift", "gutschriften", "eingange", "habenumsatze"},
	sectionTitles: []string{"umsatze", "kartenumsatze", "gebuhren", "zinsen", "sonstige umsatze"},
	SectionOut:    []string{"belastung", "belastungen", "lastschrift", "lastschriften", "ausgange", "sollumsatze"},
	BalanceTitles: []string{"saldo", "salden", "tagessalden", "kontostand"},
	Starts:        []string{"anfang", "anfangs", "alter", "alt", "vorheriger", "vortrag"},
	Ends:          []string{"ende", "end", "neuer", "neu", "schluss", "aktueller"},
	links:         []string{"am", "zum", "per"},
	Opening:       []string{"anfangssaldo", "vortrag", "saldovortrag", "ubertrag"},
	Closing:       []string{"endsaldo", "schlusssaldo"},
	Totals:        []string{"summe", "summen", "gesamt", "zwischensumme"},
	Rates:         []string{"zinssatz"},
	stats:         []string{"durchschnitt", "durchschnittssaldo", "durchschnittlicher saldo"},
	Account:       []string{"kontonummer", "konto nr", "konto", "iban"},
	Period:        []string{"zeitraum", "von", "vom", "bis", "auszug"},
	Currency:      []string{"wahrung"},
	Posting:       []string{"buchungstag", "buchungsdatum"},
	indicatorOut:  []string{"s", "soll"},
	indicatorIn:   []string{"h", "haben"},
	Card:          []string{"kreditkartenabrechnung", "kreditkartenauszug", "kreditrahmen", "kreditlimit", "kartenlimit", "mindestzahlung", "mindestbetrag", "verfugungsrahmen", "verfugbarer betrag"},
}

var french = Lexicon{
	Lang: "fr",
	Headings: map[ColRole][]string{
		RoleValueDate: {"date valeur", "date de valeur", "valeur"},
		RoleBalance:   {"solde"},
		RoleDebit:     {"debit", "debits", "retrait", "retraits", "sortie", "sorties"},
		RoleCredit:    {"credit", "credits", "versement", "versements", "entree", "entrees"},
		RoleAmount:    {"montant", "somme"},
		RoleDate:      {"date", "date comptable", "date operation", "date d operation", "date debit", "date de debit"},
		RoleType:      {"type"},
		RoleRef:       {"reference", "ref", "cheque"},
		RoleTransDate: {"date achat", "date transaction", "date d achat"},
		RoleDrCr:      {"sens", "d c"},
		RoleCount:     {"points", "points fidelite", "unites", "quantite"},
		RoleDesc:      {"libelle", "operation", "operations", "description", "nature de l operation", "detail", "designation"},
	},
	SectionIn:     []string{"credits", "versements", "entrees"},
	SectionOut:    []string{"debits", "prelevements", "retraits", "sorties"},
	BalanceTitles: []string{"solde", "soldes"},
	Starts:        []string{"initial", "debut", "precedent", "ancien", "ouverture"},
	Ends:          []string{"final", "fin", "nouveau", "cloture", "actuel"},
	links:         []string{"au", "de", "en", "a la", "du", "des"},
	Opening:       []string{"solde reporte", "report", "solde d ouverture"},
	Closing:       []string{"solde a reporter", "solde crediteur au", "solde debiteur au"},
	Totals:        []string{"total", "totaux", "somme"},
	Rates:         []string{"taux"},
	stats:         []string{"solde moyen"},
	Account:       []string{"numero de compte", "n de compte", "compte n", "compte", "iban"},
	Period:        []string{"periode", "du", "au", "releve"},
	Currency:      []string{"devise", "monnaie"},
	Posting:       []string{"date comptable", "date debit", "date de debit"},
	indicatorOut:  []string{"d", "debit"},
	indicatorIn:   []string{"c", "credit"},
	Card:          []string{"releve de carte de credit", "releve de carte", "limite de credit", "plafond de credit", "credit disponible", "paiement minimum", "date d echeance"},
}

var spanish = Lexicon{
	Lang: "es",
	Headings: map[ColRole][]string{
		RoleValueDate: {"fecha valor", "f valor"},
		RoleBalance:   {"saldo"},
		RoleDebit:     {"debito", "debitos", "cargo", "cargos", "retiros", "retiro", "egresos", "egreso", "debe", "salidas", "salida"},
		RoleCredit:    {"credito", "creditos", "abono", "abonos", "depositos", "deposito", "ingresos", "ingreso", "haber", "entradas", "entrada"},
		RoleAmount:    {"importe", "monto", "cantidad"},
		RoleDate:      {"fecha", "f contable", "fecha operacion", "fecha de operacion", "f operacion", "fecha cargo"},
		RoleType:      {"tipo", "codigo"},
		RoleRef:       {"referencia", "ref"},
		RoleTransDate: {"fecha compra", "f transaccion", "fecha transaccion"},
		RoleDrCr:      {"d h", "signo"},
		RoleCount:     {"puntos", "unidades", "cantidad de unidades"},
		RoleDesc:      {"concepto", "descripcion", "detalle", "movimiento", "movimientos"},
	},
	SectionIn:     []string{"abono", "abonos", "ingresos", "creditos", "depositos"},
	SectionOut:    []string{"cargo", "cargos", "retiros", "debitos", "egresos"},
	BalanceTitles: []string{"saldo", "saldos"},
	Starts:        []string{"inicial", "inicio", "anterior", "apertura"},
	Ends:          []string{"final", "fin", "nuevo", "actual", "cierre"},
	links:         []string{"al", "a", "de", "del", "en"},
	Opening:       []string{},
	Closing:       []string{"suma y sigue"},
	Totals:        []string{"total", "totales", "suma"},
	Rates:         []string{"tasa"},
	stats:         []string{"saldo medio", "saldo promedio"},
	Account:       []string{"numero de cuenta", "cuenta", "iban"},
	Period:        []string{"periodo", "desde", "hasta", "del", "al"},
	Currency:      []string{"moneda", "divisa"},
	Posting:       []string{"f contable", "fecha contable", "fecha cargo"},
	indicatorOut:  []string{"d", "debe", "cargo"},
	indicatorIn:   []string{"h", "haber", "abono"},
	Card:          []string{"extracto de tarjeta de credito", "extracto de tarjeta", "limite de credito", "credito disponible", "pago minimo", "fecha limite de pago"},
}

var italian = Lexicon{
	Lang: "it",
	Headings: map[ColRole][]string{
		RoleValueDate: {"data valuta", "valuta", "val"},
		RoleBalance:   {"saldo"},
		RoleDebit:     {"dare", "addebiti", "addebito", "uscite", "uscita"},
		RoleCredit:    {"avere", "accrediti", "accredito", "entrate", "entrata"},
		RoleAmount:    {"importo"},
		RoleDate:      {"data", "data contabile", "data registrazione", "data operazione", "data op", "data addebito"},
		RoleType:      {"tipo", "codice", "caus"},
		RoleRef:       {"riferimento", "rif", "n assegno", "assegno"},
		RoleTransDate: {"data acquisto"},
		RoleDrCr:      {"d a", "segno"},
		RoleCount:     {"punti", "punti fedelta", "quote", "quantita"},
		RoleDesc:      {"descrizione", "causale", "descrizione operazione", "dettaglio"},
	},
	SectionIn:     []string{"accredito", "accrediti", "entrate"},
	SectionOut:    []string{"addebito", "addebiti", "uscite"},
	BalanceTitles: []string{"saldo", "saldi"},
	Starts:        []string{"iniziale", "inizio", "precedente", "apertura"},
	Ends:          []string{"finale", "fine", "nuovo", "attuale", "chiusura"},
	links:         []string{"al", "a", "di", "del", "alla"},
	Opening:       []string{"saldo contabile iniziale", "riporto"},
	Closing:       []string{"saldo contabile finale"},
	Totals:        []string{"totale", "totali"},
	Rates:         []string{"tasso"},
	stats:         []string{"saldo medio"},
	Account:       []string{"numero di conto", "conto n", "conto", "iban"},
	Period:        []string{"periodo", "dal", "al"},
	Currency:      []string{"valuta", "divisa"},
	Posting:       []string{"data contabile", "data registrazione", "data addebito"},
	indicatorOut:  []string{"d", "dare", "addebito"},
	indicatorIn:   []string{"a", "avere", "accredito"},
	Card:          []string{"estratto conto carta di credito", "estratto conto carta", "limite di credito", "fido accordato", "disponibilita residua", "pagamento minimo"},
}

var dutch = Lexicon{
	Lang: "nl",
	Headings: map[ColRole][]string{
		RoleValueDate: {"rentedatum", "valutadatum"},
		RoleBalance:   {"saldo", "balans"},
		RoleDebit:     {"af", "debet", "afschrijving", "afschrijvingen"},
		RoleCredit:    {"bij", "credit", "bijschrijving", "bijschrijvingen"},
		RoleAmount:    {"bedrag", "transactiebedrag"},
		RoleDate:      {"boekdatum", "datum", "boekingsdatum", "verwerkingsdatum"},
		RoleType:      {"type", "code", "mutatiesoort"},
		RoleRef:       {"kenmerk", "referentie", "chequenr", "cheque nr"},
		RoleTransDate: {"aankoopdatum", "transactiedatum"},
		RoleDrCr:      {"af bij", "bij af"},
		RoleCount:     {"punten", "spaarpunten", "eenheden", "aantal"},
		RoleDesc:      {"omschrijving", "mededelingen", "naam omschrijving"},
	},
	SectionIn:     []string{"bijschrijving", "bijschrijvingen"},
	SectionOut:    []string{"afschrijving", "afschrijvingen"},
	BalanceTitles: []string{"saldo", "balans"},
	Starts:        []string{"begin", "vorig", "oud", "aanvang", "start"},
	Ends:          []string{"einde", "eind", "nieuw", "huidig", "slot"},
	links:         []string{"per", "op", "van"},
	Opening:       []string{"beginsaldo", "transport"},
	Closing:       []string{"eindsaldo"},
	Totals:        []string{"totaal", "totalen"},
	Rates:         []string{"rentepercentage"},
	stats:         []string{"gemiddeld saldo"},
	Account:       []string{"rekeningnummer", "rekening", "iban"},
	Period:        []string{"periode", "van", "tot"},
	Currency:      []string{"munt", "valuta"},
	Posting:       []string{"boekdatum", "boekingsdatum", "verwerkingsdatum"},
	indicatorOut:  []string{"af", "debet"},
	indicatorIn:   []string{"bij", "credit"},
	Card:          []string{"creditcardafschrift", "creditcardoverzicht", "kredietlimiet", "bestedingslimiet", "beschikbaar krediet", "minimaal te betalen", "uiterste betaaldatum"},
}

var portuguese = Lexicon{
	Lang: "pt",
	Headings: map[ColRole][]string{
		RoleValueDate: {"data valor", "d valor"},
		RoleBalance:   {"saldo"},
		RoleDebit:     {"debito", "debitos", "saida", "saidas", "retirada", "retiradas"},
		RoleCredit:    {"credito", "creditos", "entrada", "entradas"},
		RoleAmount:    {"valor", "montante", "importancia"},
		RoleDate:      {"data", "data lancamento", "data movimento", "data do movimento", "data registo"},
		RoleType:      {"tipo", "codigo"},
		RoleRef:       {"referencia", "documento", "doc"},
		RoleTransDate: {"data compra", "data transacao"},
		RoleDrCr:      {"sinal", "d c"},
		RoleCount:     {"pontos", "unidades", "quantidade"},
		RoleDesc:      {"descricao", "historico", "movimento", "lancamento", "lancamentos", "descritivo"},
	},
	SectionIn:     []string{"credito", "creditos", "entradas"},
	SectionOut:    []string{"debito", "debitos", "saidas"},
	BalanceTitles: []string{"saldo", "saldos"},
	Starts:        []string{"inicial", "inicio", "anterior", "abertura"},
	Ends:          []string{"final", "fim", "novo", "atual", "encerramento"},
	links:         []string{"a", "ao", "de", "do", "em", "no"},
	Opening:       []string{"transporte"},
	Closing:       []string{"saldo de fecho", "a transportar"},
	Totals:        []string{"total", "totais", "soma"},
	Rates:         []string{"taxa"},
	stats:         []string{"saldo medio"},
	Account:       []string{"numero da conta", "conta n", "conta", "iban", "nib"},
	Period:        []string{"periodo", "de", "a", "ate"},
	Currency:      []string{"moeda"},
	Posting:       []string{"data lancamento", "data registo"},
	indicatorOut:  []string{"d", "debito"},
	indicatorIn:   []string{"c", "credito"},
	Card:          []string{"extrato do cartao de credito", "extrato do cartao", "limite de credito", "credito disponivel", "pagamento minimo", "data limite de pagamento"},
}

// vocabulary is every lexicon merged: the lists the rules read. Phrases of
// a list are sorted longest first, so that the longest label wins ("account
// number" before "account").
type vocabulary struct {
	Headings                  []rolePhrases
	SectionIn, SectionOut     []string
	SectionTitles             []string
	CardSectionIn             []string
	CardSectionOut            []string
	BalanceTitles             []string
	Opening, Closing          []string
	Totals, Stats             []string
	TotalIn, TotalOut         []string
	Account, Period, Currency []string
	Posting, Card             []string
	IndicatorOut, IndicatorIn []string
}

// rolePhrases are the heading phrases of one role in every language.
type rolePhrases struct {
	role    ColRole
	Phrases []string
}

// vocab is built on first use, not at start: every process (a CLI call,
// a worker) would otherwise pay for ~900 composed phrases before main.
var Vocab = sync.OnceValue(func() *vocabulary {
	v := mergeLexicons(Lexicons)
	return &v
})

func mergeLexicons(lxs []Lexicon) vocabulary {
	var v vocabulary
	for _, role := range headingOrder {
		rp := rolePhrases{role: role}
		for _, lx := range lxs {
			rp.Phrases = append(rp.Phrases, lx.Headings[role]...)
		}
		rp.Phrases = phraseList(rp.Phrases)
		v.Headings = append(v.Headings, rp)
	}
	merge := func(get func(Lexicon) []string) []string {
		var out []string
		for _, lx := range lxs {
			out = append(out, get(lx)...)
		}
		return phraseList(out)
	}
	v.SectionIn = merge(func(l Lexicon) []string { return l.SectionIn })
	v.SectionOut = merge(func(l Lexicon) []string { return l.SectionOut })
	v.SectionTitles = merge(func(l Lexicon) []string { return slices.Concat(l.sectionTitles, l.cardSectionIn, l.cardSectionOut) })
	v.CardSectionIn = merge(func(l Lexicon) []string { return l.cardSectionIn })
	v.CardSectionOut = merge(func(l Lexicon) []string { return l.cardSectionOut })
	v.BalanceTitles = merge(func(l Lexicon) []string { return l.BalanceTitles })
	v.Opening = merge(func(l Lexicon) []string { return append(l.Opening, l.BalanceNames(l.Starts)...) })
	v.Closing = merge(func(l Lexicon) []string { return append(l.Closing, l.BalanceNames(l.Ends)...) })
	v.Totals = merge(func(l Lexicon) []string { return append(slices.Clone(l.Totals), l.Rates...) })
	v.Stats = merge(func(l Lexicon) []string { return l.stats })
	v.TotalIn = merge(func(l Lexicon) []string { return l.SumsIn() })
	v.TotalOut = merge(func(l Lexicon) []string { return l.SumsOut() })
	v.Account = merge(func(l Lexicon) []string { return l.Account })
	v.Period = merge(func(l Lexicon) []string { return l.Period })
	v.Currency = merge(func(l Lexicon) []string { return l.Currency })
	v.Posting = merge(func(l Lexicon) []string { return l.Posting })
	v.Card = merge(func(l Lexicon) []string { return l.Card })
	v.IndicatorOut = merge(func(l Lexicon) []string { return l.indicatorOut })
	v.IndicatorIn = merge(func(l Lexicon) []string { return l.indicatorIn })
	return v
}

// balanceNames joins each of lx's balance titles to each of mods: "saldo
// einde", "einde saldo", "saldo per einde".
func (lx Lexicon) BalanceNames(mods []string) []string { return lx.joined(lx.BalanceTitles, mods) }

// sumsOf joins each of lx's sum words to each of ws, the words for money
// in (or out): "total credits", "gutschriften gesamt", "total de abonos".
func (lx Lexicon) sumsOf(ws []string) []string { return lx.joined(lx.Totals, ws) }

// joined joins each of heads to each of mods, before and after it, and
// after it by each of lx's links.
func (lx Lexicon) joined(heads, mods []string) []string {
	var out []string
	for _, h := range heads {
		for _, m := range mods {
			out = append(out, h+" "+m, m+" "+h)
			for _, l := range lx.links {
				out = append(out, h+" "+l+" "+m)
			}
		}
	}
	return out
}

// sumsIn and sumsOut label the printed sums of money in and out: a sum's
// word joined to a heading or a section title of money in (out), and the
// labels that are not.
func (lx Lexicon) SumsIn() []string {
	return append(lx.sumsOf(append(slices.Clone(lx.Headings[RoleCredit]), lx.SectionIn...)), lx.TotalIn...)
}

func (lx Lexicon) SumsOut() []string {
	return append(lx.sumsOf(append(slices.Clone(lx.Headings[RoleDebit]), lx.SectionOut...)), lx.TotalOut...)
}

// phraseList removes duplicates and sorts longest first (by words, then by
// letters), keeping the order of equals.
func phraseList(ps []string) []string {
	// Each phrase's sort key is counted once, not in every comparison,
	// and the sort moves keys, not strings: the lists are built in every
	// process that reads a statement, and sorting them was most of the
	// vocabulary's cost (~4 ms a process).
	type key struct{ words, bytes, at int32 }
	seen := make(map[string]bool, len(ps))
	ks := make([]key, 0, len(ps))
	for i, p := range ps {
		if !seen[p] {
			seen[p] = true
			ks = append(ks, key{int32(strings.Count(p, " ")), int32(len(p)), int32(i)})
		}
	}
	if len(ks) == 0 {
		return nil
	}
	slices.SortStableFunc(ks, func(a, b key) int {
		if a.words != b.words {
			return int(b.words - a.words)
		}
		return int(b.bytes - a.bytes)
	})
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = ps[k.at]
	}
	return out
}

// hasPhrase reports whether folded text (from foldLabel: spaces around
// every word) holds one of the phrases as whole words.
func HasPhrase(folded string, phrases []string) bool {
	k, _ := FirstPhrase(folded, phrases)
	return k >= 0
}

// containsPhrase reports whether folded text (spaces around every word)
// holds phrase p as whole words: strings.Contains(folded, " "+p+" ")
// without building that string, which the phrase lists, run over every
// line, made a fifth of a text page's time.
func ContainsPhrase(folded, p string) bool {
	for i := 0; i+len(p) <= len(folded); {
		j := strings.Index(folded[i:], p)
		if j < 0 {
			return false
		}
		j += i
		if j > 0 && folded[j-1] == ' ' && j+len(p) < len(folded) && folded[j+len(p)] == ' ' {
			return true
		}
		i = j + 1
	}
	return false
}

// phraseEnd finds the first of phrases among words, matched whole-word on
// their folded forms, and returns the index of the word after it; -1 when
// none is there. Phrases are tried longest first.
func PhraseEnd(words []source.Word, phrases []string) int {
	_, end := PhraseSpan(words, phrases)
	return end
}

// phraseSpan is phraseEnd that also gives the index of the phrase's first
// word; -1, -1 when none is there.
func PhraseSpan(words []source.Word, phrases []string) (start, end int) {
	// The line folded once, and where each word's folded words stand in
	// it; a word that folds to none (a lone dash) spans nothing.
	type span struct{ from, to int }
	var buf [48]span
	spans := buf[:0]
	var all strings.Builder
	all.WriteByte(' ')
	for _, w := range words {
		from := all.Len()
		if f := FoldLabel(w.Text); len(f) > 2 {
			all.WriteString(f[1:]) // "a b ": foldLabel's words and the space after them
		}
		spans = append(spans, span{from, all.Len()})
	}
	k, at := FirstPhrase(all.String(), phrases)
	if k < 0 {
		return -1, -1
	}
	last := at + len(phrases[k]) - 1 // the phrase's last byte
	start, end = -1, -1
	for i, sp := range spans {
		if sp.from <= at && at < sp.to && start < 0 {
			start = i
		}
		if sp.from <= last && last < sp.to {
			end = i + 1
		}
	}
	return start, end
}
