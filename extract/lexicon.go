package extract

import (
	"slices"
	"sort"
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
type lexicon struct {
	lang string
	// headings names the column headings by role. Across languages, roles
	// are tried in headingOrder, so a heading that holds phrases of two
	// roles ("Value date") takes the more specific one.
	headings map[colRole][]string
	// sectionIn and sectionOut are titles over a table of money in (out).
	sectionIn, sectionOut []string
	// cardSectionIn and cardSectionOut are the titles of a card
	// statement's sections of money in (payments to the card, refunds)
	// and out (purchases, fees, interest).
	cardSectionIn, cardSectionOut []string
	// sectionTitles are titles of a kind of rows that say no direction
	// for every statement ("Other transactions"); a card's section titles
	// are titles too.
	sectionTitles []string
	// balanceTitles are titles over a list of balances, not movements.
	balanceTitles []string
	// opening and closing name the balance before and after the period,
	// on a row of the table or in a summary box.
	opening, closing []string
	// starts and ends are the words that, beside one of balanceTitles,
	// make a name of the opening or the closing balance the lists above
	// may not hold ("saldo einde periode", "saldo al inicio"), joined to
	// it directly or by one of links.
	starts, ends, links []string
	// totals name sums of columns, and rates the lines of rate tables:
	// never transactions.
	totals, rates []string
	// totalIn and totalOut label the printed sums of money in and out
	// that are not a sum's word joined to a word for money in (out): see
	// sumsOf.
	totalIn, totalOut []string
	// stats are figures about the balance over the period (average,
	// minimum): never transactions.
	stats []string
	// account, period and currency label the statement's own facts.
	account, period, currency []string
	// posting are the date headings that name the day the bank booked a
	// row, as against the day it happened: beside another date heading
	// ("Data operazione | Data contabile"), theirs is the row's date.
	posting []string
	// indicatorOut and indicatorIn are the words a Dr/Cr indicator column
	// prints for money out and in ("Af" and "Bij", "S" and "H").
	indicatorOut, indicatorIn []string
	// card are words only a credit-card statement prints. Not "credit
	// card" itself: a bank account's rows name card payments; but a title
	// that says the statement is a card's.
	card []string
}

// headingOrder is the order roles are tried in: the most specific first.
var headingOrder = []colRole{roleValueDate, roleTransDate, roleDrCr, roleCount, roleBalance, roleDebit, roleCredit, roleAmount, roleDate, roleType, roleRef, roleDesc}

var lexicons = []lexicon{english, german, french, spanish, italian, dutch, portuguese}

var english = lexicon{
	lang: "en",
	headings: map[colRole][]string{
		roleValueDate: {"value date", "value dt", "val date"},
		roleTransDate: {"trans date", "transaction date", "txn date", "tran date", "trx date", "date of transaction", "purchase date", "card date", "activity date", "sale date"},
		roleDrCr:      {"dr cr", "cr dr", "d c", "c d", "debit credit indicator"},
		roleCount:     {"points", "reward points", "bonus points", "pts", "miles", "units", "quantity", "qty"},
		roleBalance:   {"balance", "running balance", "ledger balance"},
		roleDebit:     {"paid out", "money out", "amount out", "withdrawal", "withdrawals", "withdraw", "debit", "debits", "payments", "payment", "out", "dr", "spent", "charges", "charge", "outgoing", "outgoings"},
		roleCredit:    {"paid in", "money in", "amount in", "deposit", "deposits", "credit", "credits", "receipts", "in", "cr", "received", "incoming"},
		roleAmount:    {"amount", "amt", "sum", "transaction amount"},
		roleDate:      {"post date", "posting date", "posted", "booking date", "book date", "date", "dt", "posted date", "date posted"},
		roleType:      {"type", "tran type", "transaction type", "code"},
		roleRef:       {"chq", "cheque", "check no", "check number", "cheque number", "check", "serial no", "ref", "reference", "ref no", "doc no", "document"},
		roleDesc:      {"transaction details", "transaction description", "description", "details", "detail", "particulars", "narration", "narrative", "memo", "payee", "text", "merchant", "transaction", "transactions"},
	},
	sectionIn:      []string{"deposit", "deposits", "credit", "credits", "paid in", "money in", "receipts"},
	cardSectionIn:  []string{"payments", "payments and credits", "payments and other credits", "credits", "refunds", "payments received"},
	cardSectionOut: []string{"purchases", "purchases and adjustments", "fees", "fees charged", "interest", "interest charged", "cash advances"},
	sectionTitles:  []string{"other transactions", "account activity", "transactions", "transaction details", "adjustments"},
	sectionOut:     []string{"withdrawal", "withdrawals", "debit", "debits", "paid out", "money out", "payments", "checks paid", "cheques paid"},
	balanceTitles:  []string{"balance", "balances"},
	starts:         []string{"opening", "starting", "beginning", "previous", "initial", "start"},
	ends:           []string{"closing", "ending", "end", "final", "new", "current"},
	links:          []string{"at", "of", "as at"},
	opening:        []string{"brought forward", "b f", "bal b f", "balance b f", "balance brought forward", "balance forward", "opening bal", "last month s balance", "last statement balance", "previous statement balance", "balance from last statement", "balance from previous statement"},
	closing:        []string{"carried forward", "c f", "balance carried", "balance carried forward", "closing bal", "statement balance"},
	totals:         []string{"total", "totals", "subtotal"},
	rates:          []string{"interest rate"},
	totalIn:        []string{"payments and credits", "deposits and other credits", "deposits and additions"},
	totalOut:       []string{"purchases and debits", "withdrawals and other debits"},
	stats:          []string{"average balance", "average daily balance", "avg balance", "avg daily balance", "minimum balance", "maximum balance", "lowest balance", "highest balance", "mean balance", "average credit balance", "average debit balance", "average collected balance", "average ledger balance", "minimum daily balance", "lowest daily balance"},
	account:        []string{"account number", "account no", "account nr", "account", "acct number", "acct no", "acct", "a c no", "a c", "iban", "card number"},
	period:         []string{"period", "statement", "from", "between", "to", "through", "thru"},
	currency:       []string{"currency"},
	posting:        []string{"post date", "posting date", "posted", "posted date", "date posted", "booking date", "book date"},
	indicatorOut:   []string{"dr", "d", "db", "debit"},
	indicatorIn:    []string{"cr", "c", "credit"},
	card:           []string{"credit card statement", "card statement", "credit limit", "minimum payment", "minimum payment due", "minimum amount due", "payment due date", "available credit", "cash advance limit", "cash advances", "purchases"},
}

var german = lexicon{
	lang: "de",
	headings: map[colRole][]string{
		roleValueDate: {"valuta", "wertstellung", "wert", "valutadatum"},
		roleDrCr:      {"s h", "soll haben"},
		roleCount:     {"punkte", "bonuspunkte", "einheiten", "anzahl", "menge"},
		roleBalance:   {"saldo", "kontostand"},
		roleDebit:     {"soll", "lastschrift", "belastung", "ausgang", "ausgange", "abbuchung", "auszahlung"},
		roleCredit:    {"haben", "gutschrift", "eingang", "eingange", "einzahlung"},
		roleAmount:    {"betrag", "umsatz"},
		roleDate:      {"buchungstag", "buchungsdatum", "buchung", "datum"},
		roleType:      {"typ", "art", "umsatzart", "buchungsart", "gvc"},
		roleRef:       {"referenz", "belegnr", "beleg nr", "scheck nr", "schecknummer"},
		roleTransDate: {"belegdatum", "umsatztag", "kaufdatum"},
		roleDesc:      {"verwendungszweck", "vorgang", "buchungstext", "text", "beschreibung", "erlauterung"},
	},
	sectionIn:     []string{"gutschrift", "gutschriften", "eingange", "habenumsatze"},
	sectionTitles: []string{"umsatze", "kartenumsatze", "gebuhren", "zinsen", "sonstige umsatze"},
	sectionOut:    []string{"belastung", "belastungen", "lastschrift", "lastschriften", "ausgange", "sollumsatze"},
	balanceTitles: []string{"saldo", "salden", "tagessalden", "kontostand"},
	starts:        []string{"anfang", "anfangs", "alter", "alt", "vorheriger", "vortrag"},
	ends:          []string{"ende", "end", "neuer", "neu", "schluss", "aktueller"},
	links:         []string{"am", "zum", "per"},
	opening:       []string{"anfangssaldo", "vortrag", "saldovortrag", "ubertrag"},
	closing:       []string{"endsaldo", "schlusssaldo"},
	totals:        []string{"summe", "summen", "gesamt", "zwischensumme"},
	rates:         []string{"zinssatz"},
	stats:         []string{"durchschnitt", "durchschnittssaldo", "durchschnittlicher saldo"},
	account:       []string{"kontonummer", "konto nr", "konto", "iban"},
	period:        []string{"zeitraum", "von", "vom", "bis", "auszug"},
	currency:      []string{"wahrung"},
	posting:       []string{"buchungstag", "buchungsdatum"},
	indicatorOut:  []string{"s", "soll"},
	indicatorIn:   []string{"h", "haben"},
	card:          []string{"kreditkartenabrechnung", "kreditkartenauszug", "kreditrahmen", "kreditlimit", "kartenlimit", "mindestzahlung", "mindestbetrag", "verfugungsrahmen", "verfugbarer betrag"},
}

var french = lexicon{
	lang: "fr",
	headings: map[colRole][]string{
		roleValueDate: {"date valeur", "date de valeur", "valeur"},
		roleBalance:   {"solde"},
		roleDebit:     {"debit", "debits", "retrait", "retraits", "sortie", "sorties"},
		roleCredit:    {"credit", "credits", "versement", "versements", "entree", "entrees"},
		roleAmount:    {"montant", "somme"},
		roleDate:      {"date", "date comptable", "date operation", "date d operation", "date debit", "date de debit"},
		roleType:      {"type"},
		roleRef:       {"reference", "ref", "cheque"},
		roleTransDate: {"date achat", "date transaction", "date d achat"},
		roleDrCr:      {"sens", "d c"},
		roleCount:     {"points", "points fidelite", "unites", "quantite"},
		roleDesc:      {"libelle", "operation", "operations", "description", "nature de l operation", "detail", "designation"},
	},
	sectionIn:     []string{"credits", "versements", "entrees"},
	sectionOut:    []string{"debits", "prelevements", "retraits", "sorties"},
	balanceTitles: []string{"solde", "soldes"},
	starts:        []string{"initial", "debut", "precedent", "ancien", "ouverture"},
	ends:          []string{"final", "fin", "nouveau", "cloture", "actuel"},
	links:         []string{"au", "de", "en", "a la", "du", "des"},
	opening:       []string{"solde reporte", "report", "solde d ouverture"},
	closing:       []string{"solde a reporter", "solde crediteur au", "solde debiteur au"},
	totals:        []string{"total", "totaux", "somme"},
	rates:         []string{"taux"},
	stats:         []string{"solde moyen"},
	account:       []string{"numero de compte", "n de compte", "compte n", "compte", "iban"},
	period:        []string{"periode", "du", "au", "releve"},
	currency:      []string{"devise", "monnaie"},
	posting:       []string{"date comptable", "date debit", "date de debit"},
	indicatorOut:  []string{"d", "debit"},
	indicatorIn:   []string{"c", "credit"},
	card:          []string{"releve de carte de credit", "releve de carte", "limite de credit", "plafond de credit", "credit disponible", "paiement minimum", "date d echeance"},
}

var spanish = lexicon{
	lang: "es",
	headings: map[colRole][]string{
		roleValueDate: {"fecha valor", "f valor"},
		roleBalance:   {"saldo"},
		roleDebit:     {"debito", "debitos", "cargo", "cargos", "retiros", "retiro", "egresos", "egreso", "debe", "salidas", "salida"},
		roleCredit:    {"credito", "creditos", "abono", "abonos", "depositos", "deposito", "ingresos", "ingreso", "haber", "entradas", "entrada"},
		roleAmount:    {"importe", "monto", "cantidad"},
		roleDate:      {"fecha", "f contable", "fecha operacion", "fecha de operacion", "f operacion", "fecha cargo"},
		roleType:      {"tipo", "codigo"},
		roleRef:       {"referencia", "ref"},
		roleTransDate: {"fecha compra", "f transaccion", "fecha transaccion"},
		roleDrCr:      {"d h", "signo"},
		roleCount:     {"puntos", "unidades", "cantidad de unidades"},
		roleDesc:      {"concepto", "descripcion", "detalle", "movimiento", "movimientos"},
	},
	sectionIn:     []string{"abono", "abonos", "ingresos", "creditos", "depositos"},
	sectionOut:    []string{"cargo", "cargos", "retiros", "debitos", "egresos"},
	balanceTitles: []string{"saldo", "saldos"},
	starts:        []string{"inicial", "inicio", "anterior", "apertura"},
	ends:          []string{"final", "fin", "nuevo", "actual", "cierre"},
	links:         []string{"al", "a", "de", "del", "en"},
	opening:       []string{},
	closing:       []string{"suma y sigue"},
	totals:        []string{"total", "totales", "suma"},
	rates:         []string{"tasa"},
	stats:         []string{"saldo medio", "saldo promedio"},
	account:       []string{"numero de cuenta", "cuenta", "iban"},
	period:        []string{"periodo", "desde", "hasta", "del", "al"},
	currency:      []string{"moneda", "divisa"},
	posting:       []string{"f contable", "fecha contable", "fecha cargo"},
	indicatorOut:  []string{"d", "debe", "cargo"},
	indicatorIn:   []string{"h", "haber", "abono"},
	card:          []string{"extracto de tarjeta de credito", "extracto de tarjeta", "limite de credito", "credito disponible", "pago minimo", "fecha limite de pago"},
}

var italian = lexicon{
	lang: "it",
	headings: map[colRole][]string{
		roleValueDate: {"data valuta", "valuta", "val"},
		roleBalance:   {"saldo"},
		roleDebit:     {"dare", "addebiti", "addebito", "uscite", "uscita"},
		roleCredit:    {"avere", "accrediti", "accredito", "entrate", "entrata"},
		roleAmount:    {"importo"},
		roleDate:      {"data", "data contabile", "data registrazione", "data operazione", "data op", "data addebito"},
		roleType:      {"tipo", "codice", "caus"},
		roleRef:       {"riferimento", "rif", "n assegno", "assegno"},
		roleTransDate: {"data acquisto"},
		roleDrCr:      {"d a", "segno"},
		roleCount:     {"punti", "punti fedelta", "quote", "quantita"},
		roleDesc:      {"descrizione", "causale", "descrizione operazione", "dettaglio"},
	},
	sectionIn:     []string{"accredito", "accrediti", "entrate"},
	sectionOut:    []string{"addebito", "addebiti", "uscite"},
	balanceTitles: []string{"saldo", "saldi"},
	starts:        []string{"iniziale", "inizio", "precedente", "apertura"},
	ends:          []string{"finale", "fine", "nuovo", "attuale", "chiusura"},
	links:         []string{"al", "a", "di", "del", "alla"},
	opening:       []string{"saldo contabile iniziale", "riporto"},
	closing:       []string{"saldo contabile finale"},
	totals:        []string{"totale", "totali"},
	rates:         []string{"tasso"},
	stats:         []string{"saldo medio"},
	account:       []string{"numero di conto", "conto n", "conto", "iban"},
	period:        []string{"periodo", "dal", "al"},
	currency:      []string{"valuta", "divisa"},
	posting:       []string{"data contabile", "data registrazione", "data addebito"},
	indicatorOut:  []string{"d", "dare", "addebito"},
	indicatorIn:   []string{"a", "avere", "accredito"},
	card:          []string{"estratto conto carta di credito", "estratto conto carta", "limite di credito", "fido accordato", "disponibilita residua", "pagamento minimo"},
}

var dutch = lexicon{
	lang: "nl",
	headings: map[colRole][]string{
		roleValueDate: {"rentedatum", "valutadatum"},
		roleBalance:   {"saldo", "balans"},
		roleDebit:     {"af", "debet", "afschrijving", "afschrijvingen"},
		roleCredit:    {"bij", "credit", "bijschrijving", "bijschrijvingen"},
		roleAmount:    {"bedrag", "transactiebedrag"},
		roleDate:      {"boekdatum", "datum", "boekingsdatum", "verwerkingsdatum"},
		roleType:      {"type", "code", "mutatiesoort"},
		roleRef:       {"kenmerk", "referentie", "chequenr", "cheque nr"},
		roleTransDate: {"aankoopdatum", "transactiedatum"},
		roleDrCr:      {"af bij", "bij af"},
		roleCount:     {"punten", "spaarpunten", "eenheden", "aantal"},
		roleDesc:      {"omschrijving", "mededelingen", "naam omschrijving"},
	},
	sectionIn:     []string{"bijschrijving", "bijschrijvingen"},
	sectionOut:    []string{"afschrijving", "afschrijvingen"},
	balanceTitles: []string{"saldo", "balans"},
	starts:        []string{"begin", "vorig", "oud", "aanvang", "start"},
	ends:          []string{"einde", "eind", "nieuw", "huidig", "slot"},
	links:         []string{"per", "op", "van"},
	opening:       []string{"beginsaldo", "transport"},
	closing:       []string{"eindsaldo"},
	totals:        []string{"totaal", "totalen"},
	rates:         []string{"rentepercentage"},
	stats:         []string{"gemiddeld saldo"},
	account:       []string{"rekeningnummer", "rekening", "iban"},
	period:        []string{"periode", "van", "tot"},
	currency:      []string{"munt", "valuta"},
	posting:       []string{"boekdatum", "boekingsdatum", "verwerkingsdatum"},
	indicatorOut:  []string{"af", "debet"},
	indicatorIn:   []string{"bij", "credit"},
	card:          []string{"creditcardafschrift", "creditcardoverzicht", "kredietlimiet", "bestedingslimiet", "beschikbaar krediet", "minimaal te betalen", "uiterste betaaldatum"},
}

var portuguese = lexicon{
	lang: "pt",
	headings: map[colRole][]string{
		roleValueDate: {"data valor", "d valor"},
		roleBalance:   {"saldo"},
		roleDebit:     {"debito", "debitos", "saida", "saidas", "retirada", "retiradas"},
		roleCredit:    {"credito", "creditos", "entrada", "entradas"},
		roleAmount:    {"valor", "montante", "importancia"},
		roleDate:      {"data", "data lancamento", "data movimento", "data do movimento", "data registo"},
		roleType:      {"tipo", "codigo"},
		roleRef:       {"referencia", "documento", "doc"},
		roleTransDate: {"data compra", "data transacao"},
		roleDrCr:      {"sinal", "d c"},
		roleCount:     {"pontos", "unidades", "quantidade"},
		roleDesc:      {"descricao", "historico", "movimento", "lancamento", "lancamentos", "descritivo"},
	},
	sectionIn:     []string{"credito", "creditos", "entradas"},
	sectionOut:    []string{"debito", "debitos", "saidas"},
	balanceTitles: []string{"saldo", "saldos"},
	starts:        []string{"inicial", "inicio", "anterior", "abertura"},
	ends:          []string{"final", "fim", "novo", "atual", "encerramento"},
	links:         []string{"a", "ao", "de", "do", "em", "no"},
	opening:       []string{"transporte"},
	closing:       []string{"saldo de fecho", "a transportar"},
	totals:        []string{"total", "totais", "soma"},
	rates:         []string{"taxa"},
	stats:         []string{"saldo medio"},
	account:       []string{"numero da conta", "conta n", "conta", "iban", "nib"},
	period:        []string{"periodo", "de", "a", "ate"},
	currency:      []string{"moeda"},
	posting:       []string{"data lancamento", "data registo"},
	indicatorOut:  []string{"d", "debito"},
	indicatorIn:   []string{"c", "credito"},
	card:          []string{"extrato do cartao de credito", "extrato do cartao", "limite de credito", "credito disponivel", "pagamento minimo", "data limite de pagamento"},
}

// vocabulary is every lexicon merged: the lists the rules read. Phrases of
// a list are sorted longest first, so that the longest label wins ("account
// number" before "account").
type vocabulary struct {
	headings                  []rolePhrases
	sectionIn, sectionOut     []string
	sectionTitles             []string
	cardSectionIn             []string
	cardSectionOut            []string
	balanceTitles             []string
	opening, closing          []string
	totals, stats             []string
	totalIn, totalOut         []string
	account, period, currency []string
	posting, card             []string
	indicatorOut, indicatorIn []string
}

// rolePhrases are the heading phrases of one role in every language.
type rolePhrases struct {
	role    colRole
	phrases []string
}

// vocab is built on first use, not at start: every process (a CLI call,
// a worker) would otherwise pay for ~900 composed phrases before main.
var vocab = sync.OnceValue(func() *vocabulary {
	v := mergeLexicons(lexicons)
	return &v
})

func mergeLexicons(lxs []lexicon) vocabulary {
	var v vocabulary
	for _, role := range headingOrder {
		rp := rolePhrases{role: role}
		for _, lx := range lxs {
			rp.phrases = append(rp.phrases, lx.headings[role]...)
		}
		rp.phrases = phraseList(rp.phrases)
		v.headings = append(v.headings, rp)
	}
	merge := func(get func(lexicon) []string) []string {
		var out []string
		for _, lx := range lxs {
			out = append(out, get(lx)...)
		}
		return phraseList(out)
	}
	v.sectionIn = merge(func(l lexicon) []string { return l.sectionIn })
	v.sectionOut = merge(func(l lexicon) []string { return l.sectionOut })
	v.sectionTitles = merge(func(l lexicon) []string { return slices.Concat(l.sectionTitles, l.cardSectionIn, l.cardSectionOut) })
	v.cardSectionIn = merge(func(l lexicon) []string { return l.cardSectionIn })
	v.cardSectionOut = merge(func(l lexicon) []string { return l.cardSectionOut })
	v.balanceTitles = merge(func(l lexicon) []string { return l.balanceTitles })
	v.opening = merge(func(l lexicon) []string { return append(l.opening, l.balanceNames(l.starts)...) })
	v.closing = merge(func(l lexicon) []string { return append(l.closing, l.balanceNames(l.ends)...) })
	v.totals = merge(func(l lexicon) []string { return append(slices.Clone(l.totals), l.rates...) })
	v.stats = merge(func(l lexicon) []string { return l.stats })
	v.totalIn = merge(func(l lexicon) []string { return l.sumsIn() })
	v.totalOut = merge(func(l lexicon) []string { return l.sumsOut() })
	v.account = merge(func(l lexicon) []string { return l.account })
	v.period = merge(func(l lexicon) []string { return l.period })
	v.currency = merge(func(l lexicon) []string { return l.currency })
	v.posting = merge(func(l lexicon) []string { return l.posting })
	v.card = merge(func(l lexicon) []string { return l.card })
	v.indicatorOut = merge(func(l lexicon) []string { return l.indicatorOut })
	v.indicatorIn = merge(func(l lexicon) []string { return l.indicatorIn })
	return v
}

// balanceNames joins each of lx's balance titles to each of mods: "saldo
// einde", "einde saldo", "saldo per einde".
func (lx lexicon) balanceNames(mods []string) []string { return lx.joined(lx.balanceTitles, mods) }

// sumsOf joins each of lx's sum words to each of ws, the words for money
// in (or out): "total credits", "gutschriften gesamt", "total de abonos".
func (lx lexicon) sumsOf(ws []string) []string { return lx.joined(lx.totals, ws) }

// joined joins each of heads to each of mods, before and after it, and
// after it by each of lx's links.
func (lx lexicon) joined(heads, mods []string) []string {
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
func (lx lexicon) sumsIn() []string {
	return append(lx.sumsOf(append(slices.Clone(lx.headings[roleCredit]), lx.sectionIn...)), lx.totalIn...)
}

func (lx lexicon) sumsOut() []string {
	return append(lx.sumsOf(append(slices.Clone(lx.headings[roleDebit]), lx.sectionOut...)), lx.totalOut...)
}

// phraseList removes duplicates and sorts longest first (by words, then by
// letters), keeping the order of equals.
func phraseList(ps []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		wi, wj := strings.Count(out[i], " "), strings.Count(out[j], " ")
		if wi != wj {
			return wi > wj
		}
		return len(out[i]) > len(out[j])
	})
	return out
}

// hasPhrase reports whether folded text (from foldLabel: spaces around
// every word) holds one of the phrases as whole words.
func hasPhrase(folded string, phrases []string) bool {
	for _, p := range phrases {
		if containsPhrase(folded, p) {
			return true
		}
	}
	return false
}

// containsPhrase reports whether folded text (spaces around every word)
// holds phrase p as whole words: strings.Contains(folded, " "+p+" ")
// without building that string, which the phrase lists, run over every
// line, made a fifth of a text page's time.
func containsPhrase(folded, p string) bool {
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
func phraseEnd(words []source.Word, phrases []string) int {
	_, end := phraseSpan(words, phrases)
	return end
}

// phraseSpan is phraseEnd that also gives the index of the phrase's first
// word; -1, -1 when none is there.
func phraseSpan(words []source.Word, phrases []string) (start, end int) {
	type tok struct {
		s    string
		word int
	}
	var toks []tok
	for i, w := range words {
		for _, f := range strings.Fields(foldLabel(w.Text)) {
			toks = append(toks, tok{f, i})
		}
	}
	var all strings.Builder
	all.WriteByte(' ')
	for _, t := range toks {
		all.WriteString(t.s)
		all.WriteByte(' ')
	}
	folded := all.String()
	for _, p := range phrases {
		if !containsPhrase(folded, p) {
			continue
		}
		ps := strings.Fields(p)
	start:
		for s := 0; s+len(ps) <= len(toks); s++ {
			for k, f := range ps {
				if toks[s+k].s != f {
					continue start
				}
			}
			return toks[s].word, toks[s+len(ps)-1].word + 1
		}
	}
	return -1, -1
}
