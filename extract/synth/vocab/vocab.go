// Package vocab holds the words the world generator (extract/synth's
// world statements) prints: known words, in the languages the engine's
// lexicon holds; held-out words, in languages it does not hold; and
// invented words, made up per statement. A test in extract fails when a
// held-out or invented word is in the engine's lexicon, so the words stay
// held out: a language moves into the lexicon only if another one is held
// out in its place.
//
// The package imports nothing of the project, so the engine's tests can
// read it.
package vocab

import (
	"math/rand/v2"
	"strings"
	"unicode"
)

// Class says whether the engine was meant to know a statement's words.
type Class string

// The three vocabularies a world statement is printed in.
const (
	Known    Class = "known"
	HeldOut  Class = "held-out"
	Invented Class = "invented"
)

// Classes lists the vocabularies in report order.
var Classes = []Class{Known, HeldOut, Invented}

// Lexicon is one language's words for what a statement prints. Every
// slice holds synonyms; the generator picks one per statement.
type Lexicon struct {
	Lang  string // ISO 639-1 code, or "x-" and a seed for invented words
	Class Class
	// Furniture.
	Title, Account, Period, Currency, Page []string
	// Column headings, and the labels of a key-value block.
	Date, ValueDate, Desc, Ref, Debit, Credit, Amount, Balance []string
	// Balance lines and sums.
	Opening, Closing, Totals, DayBalance []string
	// Card statements: the title and the sections' titles.
	CardTitle, Payments, Purchases, Fees, Interest []string
	// AccountKinds head the accounts of a document that holds two.
	AccountKinds []string
	// Descriptions: kinds of money in and out, printed before a
	// counterparty's name.
	In, Out []string
}

// Phrases lists every word and phrase of the lexicon, for the held-out
// test.
func (l *Lexicon) Phrases() []string {
	var out []string
	for _, s := range [][]string{l.Title, l.Account, l.Period, l.Currency, l.Page, l.Date, l.ValueDate, l.Desc, l.Ref,
		l.Debit, l.Credit, l.Amount, l.Balance, l.Opening, l.Closing, l.Totals, l.DayBalance, l.CardTitle,
		l.Payments, l.Purchases, l.Fees, l.Interest, l.AccountKinds, l.In, l.Out} {
		out = append(out, s...)
	}
	return out
}

// HeldOutLexicons are the languages the engine's lexicon does not hold.
// The words are the ones banks print, chosen among synonyms so that none
// is a word the lexicon holds in another language (Polish and Swedish
// "saldo" is German and Italian "saldo": they print "stan" and
// "behållning" here, which their banks print too).
var HeldOutLexicons = []*Lexicon{polish, czech, hungarian, turkish, indonesian, swedish, finnish, romanian, greek, russian}

// KnownLexicons are languages the engine's lexicon holds, in words it
// holds.
var KnownLexicons = []*Lexicon{knownEnglish, knownGerman, knownFrench, knownSpanish, knownItalian}

var polish = &Lexicon{Lang: "pl", Class: HeldOut,
	Title: []string{"Wyciąg z rachunku", "Zestawienie operacji"}, Account: []string{"Numer rachunku", "Rachunek nr"},
	Period: []string{"Okres rozliczeniowy", "Za okres"}, Currency: []string{"Waluta rachunku"}, Page: []string{"Strona"},
	Date: []string{"Dzień księgowania", "Księgowano"}, ValueDate: []string{"Dzień waluty"},
	Desc: []string{"Opis operacji", "Tytuł operacji"}, Ref: []string{"Numer dowodu"},
	Debit: []string{"Obciążenia", "Wypłaty"}, Credit: []string{"Uznania", "Wpłaty"}, Amount: []string{"Kwota"},
	Balance: []string{"Stan rachunku", "Stan po operacji"},
	Opening: []string{"Stan początkowy", "Stan na początek okresu"}, Closing: []string{"Stan końcowy", "Stan na koniec okresu"},
	Totals: []string{"Obroty razem"}, DayBalance: []string{"Stan na koniec dnia"},
	CardTitle: []string{"Zestawienie karty kredytowej"}, Payments: []string{"Spłaty"}, Purchases: []string{"Zakupy"},
	Fees: []string{"Opłaty"}, Interest: []string{"Odsetki"},
	AccountKinds: []string{"Rachunek bieżący", "Rachunek oszczędnościowy"},
	In:           []string{"Wynagrodzenie", "Przelew przychodzący", "Zwrot"}, Out: []string{"Płatność kartą", "Przelew wychodzący", "Polecenie zapłaty", "Wypłata z bankomatu"},
}

var czech = &Lexicon{Lang: "cs", Class: HeldOut,
	Title: []string{"Výpis z účtu", "Bankovní výpis"}, Account: []string{"Číslo účtu"},
	Period: []string{"Výpis za období", "Období"}, Currency: []string{"Měna účtu"}, Page: []string{"Strana"},
	Date: []string{"Zaúčtováno", "Den zaúčtování"}, ValueDate: []string{"Splatnost"},
	Desc: []string{"Popis transakce", "Označení platby"}, Ref: []string{"Variabilní symbol"},
	Debit: []string{"Odepsáno", "Výdaje"}, Credit: []string{"Připsáno", "Příjmy"}, Amount: []string{"Částka"},
	Balance: []string{"Zůstatek"},
	Opening: []string{"Počáteční zůstatek", "Zůstatek na začátku"}, Closing: []string{"Konečný zůstatek", "Zůstatek ke konci"},
	Totals: []string{"Obraty celkem", "Součet"}, DayBalance: []string{"Denní zůstatek"},
	CardTitle: []string{"Výpis z kreditní karty"}, Payments: []string{"Splátky"}, Purchases: []string{"Nákupy"},
	Fees: []string{"Poplatky"}, Interest: []string{"Úroky"},
	AccountKinds: []string{"Běžný účet", "Spořicí účet"},
	In:           []string{"Mzda", "Příchozí platba", "Vratka"}, Out: []string{"Platba kartou", "Odchozí platba", "Inkaso", "Výběr z bankomatu"},
}

var hungarian = &Lexicon{Lang: "hu", Class: HeldOut,
	Title: []string{"Számlakivonat", "Bankszámlakivonat"}, Account: []string{"Számlaszám"},
	Period: []string{"Kivonat időszaka", "Időszak"}, Currency: []string{"Devizanem"}, Page: []string{"Oldal"},
	Date: []string{"Könyvelés napja", "Könyvelés"}, ValueDate: []string{"Értéknap"},
	Desc: []string{"Közlemény", "Megnevezés"}, Ref: []string{"Tranzakció azonosító"},
	Debit: []string{"Terhelés", "Kiadás"}, Credit: []string{"Jóváírás", "Bevétel"}, Amount: []string{"Összeg"},
	Balance: []string{"Egyenleg"},
	Opening: []string{"Nyitó egyenleg", "Előző egyenleg"}, Closing: []string{"Záró egyenleg", "Új egyenleg"},
	Totals: []string{"Forgalom összesen", "Összesen"}, DayBalance: []string{"Napi záró egyenleg"},
	CardTitle: []string{"Hitelkártya kivonat"}, Payments: []string{"Befizetések"}, Purchases: []string{"Vásárlások"},
	Fees: []string{"Díjak"}, Interest: []string{"Kamatok"},
	AccountKinds: []string{"Folyószámla", "Megtakarítási számla"},
	In:           []string{"Munkabér", "Bejövő utalás", "Visszatérítés"}, Out: []string{"Kártyás vásárlás", "Kimenő utalás", "Csoportos beszedés", "Készpénzfelvétel"},
}

var turkish = &Lexicon{Lang: "tr", Class: HeldOut,
	Title: []string{"Hesap Özeti", "Hesap Ekstresi"}, Account: []string{"Hesap Numarası", "Hesap No"},
	Period: []string{"Dönem", "Ekstre Dönemi"}, Currency: []string{"Para Birimi"}, Page: []string{"Sayfa"},
	Date: []string{"İşlem Tarihi", "Tarih"}, ValueDate: []string{"Geçerlilik Tarihi"},
	Desc: []string{"Açıklama", "İşlem Açıklaması"}, Ref: []string{"Dekont No"},
	Debit: []string{"Borç", "Çıkan"}, Credit: []string{"Alacak", "Giren"}, Amount: []string{"Tutar", "İşlem Tutarı"},
	Balance: []string{"Bakiye"},
	Opening: []string{"Devreden Bakiye", "Önceki Bakiye"}, Closing: []string{"Kapanış Bakiyesi", "Yeni Bakiye"},
	Totals: []string{"Toplam", "Genel Toplam"}, DayBalance: []string{"Gün Sonu Bakiyesi"},
	CardTitle: []string{"Kredi Kartı Ekstresi"}, Payments: []string{"Ödemeler"}, Purchases: []string{"Harcamalar"},
	Fees: []string{"Ücretler"}, Interest: []string{"Faizler"},
	AccountKinds: []string{"Vadesiz Hesap", "Birikim Hesabı"},
	In:           []string{"Maaş Ödemesi", "Gelen Havale", "İade"}, Out: []string{"Kartlı Harcama", "Giden Havale", "Otomatik Ödeme", "Nakit Çekim"},
}

var indonesian = &Lexicon{Lang: "id", Class: HeldOut,
	Title: []string{"Laporan Mutasi", "Mutasi Tabungan"}, Account: []string{"Nomor Akun", "No. Rek."},
	Period: []string{"Masa Laporan"}, Currency: []string{"Mata Uang"}, Page: []string{"Halaman"},
	Date: []string{"Tanggal", "Tgl. Pembukuan"}, ValueDate: []string{"Tgl. Efektif"},
	Desc: []string{"Keterangan", "Uraian Transaksi"}, Ref: []string{"Nomor Bukti"},
	Debit: []string{"Mutasi Keluar", "Pengeluaran"}, Credit: []string{"Mutasi Masuk", "Pemasukan"}, Amount: []string{"Nominal", "Jumlah"},
	Balance: []string{"Sisa Dana"},
	Opening: []string{"Sisa Dana Awal", "Dana Awal"}, Closing: []string{"Sisa Dana Akhir", "Dana Akhir"},
	Totals: []string{"Jumlah Mutasi"}, DayBalance: []string{"Sisa Dana Harian"},
	CardTitle: []string{"Tagihan Kartu Kredit"}, Payments: []string{"Pembayaran"}, Purchases: []string{"Pembelanjaan"},
	Fees: []string{"Biaya"}, Interest: []string{"Bunga"},
	AccountKinds: []string{"Tabungan", "Giro"},
	In:           []string{"Gaji Bulanan", "Transfer Masuk", "Pengembalian Dana"}, Out: []string{"Pembelian Kartu", "Transfer Keluar", "Autodebet", "Tarik Tunai"},
}

var swedish = &Lexicon{Lang: "sv", Class: HeldOut,
	Title: []string{"Kontoutdrag", "Kontohändelser"}, Account: []string{"Kontots nummer"},
	Period: []string{"Utdragsperiod", "Avser perioden"}, Currency: []string{"Myntslag"}, Page: []string{"Sida"},
	Date: []string{"Bokföringsdag", "Bokfört"}, ValueDate: []string{"Räntedag"},
	Desc: []string{"Beskrivning", "Händelse"}, Ref: []string{"Verifikationsnummer"},
	Debit: []string{"Uttag", "Utgående"}, Credit: []string{"Insättning", "Ingående"}, Amount: []string{"Belopp"},
	Balance: []string{"Behållning", "Disponibelt"},
	Opening: []string{"Ingående behållning"}, Closing: []string{"Utgående behållning"},
	Totals: []string{"Summa händelser", "Omslutning"}, DayBalance: []string{"Behållning vid dagens slut"},
	CardTitle: []string{"Kreditkortsfaktura"}, Payments: []string{"Inbetalningar"}, Purchases: []string{"Köp"},
	Fees: []string{"Avgifter"}, Interest: []string{"Räntor"},
	AccountKinds: []string{"Lönekonto", "Sparkonto"},
	In:           []string{"Lön", "Inkommande överföring", "Återbetalning"}, Out: []string{"Kortköp", "Utgående överföring", "Autogiro", "Kontantuttag"},
}

var finnish = &Lexicon{Lang: "fi", Class: HeldOut,
	Title: []string{"Tiliote", "Tilitapahtumat"}, Account: []string{"Tilinumero"},
	Period: []string{"Ajanjakso", "Tiliotekausi"}, Currency: []string{"Tilin valuutta"}, Page: []string{"Sivu"},
	Date: []string{"Kirjauspäivä", "Kirjattu"}, ValueDate: []string{"Arvopäivä"},
	Desc: []string{"Selite", "Tapahtuman kuvaus"}, Ref: []string{"Arkistointitunnus"},
	Debit: []string{"Veloitukset", "Nostot"}, Credit: []string{"Hyvitykset", "Panot"}, Amount: []string{"Määrä"},
	Balance: []string{"Tilin tila", "Kate"},
	Opening: []string{"Alkutila", "Tilin tila kauden alussa"}, Closing: []string{"Lopputila", "Tilin tila kauden lopussa"},
	Totals: []string{"Tapahtumat yhteensä", "Yhteensä"}, DayBalance: []string{"Päivän lopputila"},
	CardTitle: []string{"Luottokorttilasku"}, Payments: []string{"Maksusuoritukset"}, Purchases: []string{"Ostot"},
	Fees: []string{"Maksut ja palkkiot"}, Interest: []string{"Korot"},
	AccountKinds: []string{"Käyttötili", "Säästötili"},
	In:           []string{"Palkka", "Tilisiirto sisään", "Hyvityslasku"}, Out: []string{"Korttiosto", "Tilisiirto ulos", "Suoramaksu", "Käteisnosto"},
}

var romanian = &Lexicon{Lang: "ro", Class: HeldOut,
	Title: []string{"Extras de cont", "Extras bancar"}, Account: []string{"Număr cont"},
	Period: []string{"Perioada extrasului", "Interval"}, Currency: []string{"Unitate monetară"}, Page: []string{"Pagina"},
	Date: []string{"Ziua înregistrării", "Înregistrat"}, ValueDate: []string{"Ziua decontării"},
	Desc: []string{"Detalii tranzacție", "Explicații"}, Ref: []string{"Număr chitanță"},
	Debit: []string{"Plăți", "Ieșiri"}, Credit: []string{"Încasări", "Intrări"}, Amount: []string{"Valoare"},
	Balance: []string{"Sold"},
	Opening: []string{"Sold inițial", "Sold precedent"}, Closing: []string{"Sold final curent", "Sold la zi"},
	Totals: []string{"Rulaje cumulate", "Rulaje"}, DayBalance: []string{"Sold la sfârșitul zilei"},
	CardTitle: []string{"Extras cont card"}, Payments: []string{"Rambursări"}, Purchases: []string{"Cumpărături"},
	Fees: []string{"Comisioane"}, Interest: []string{"Dobânzi"},
	AccountKinds: []string{"Cont curent", "Cont de economii"},
	In:           []string{"Salariu", "Transfer primit", "Rambursare"}, Out: []string{"Plată cu cardul", "Transfer trimis", "Debitare directă", "Retragere numerar"},
}

var greek = &Lexicon{Lang: "el", Class: HeldOut,
	Title: []string{"Κίνηση λογαριασμού", "Αντίγραφο κίνησης"}, Account: []string{"Αριθμός λογαριασμού"},
	Period: []string{"Περίοδος"}, Currency: []string{"Νόμισμα"}, Page: []string{"Σελίδα"},
	Date: []string{"Ημ/νία λογιστική", "Ημερομηνία"}, ValueDate: []string{"Ημ/νία αξίας"},
	Desc: []string{"Περιγραφή", "Αιτιολογία"}, Ref: []string{"Αρ. παραστατικού"},
	Debit: []string{"Χρέωση", "Χρεώσεις"}, Credit: []string{"Πίστωση", "Πιστώσεις"}, Amount: []string{"Ποσό"},
	Balance: []string{"Υπόλοιπο"},
	Opening: []string{"Υπόλοιπο έναρξης", "Προηγούμενο υπόλοιπο"}, Closing: []string{"Υπόλοιπο λήξης", "Νέο υπόλοιπο"},
	Totals: []string{"Σύνολα", "Σύνολο κινήσεων"}, DayBalance: []string{"Υπόλοιπο ημέρας"},
	CardTitle: []string{"Κατάσταση πιστωτικής κάρτας"}, Payments: []string{"Πληρωμές"}, Purchases: []string{"Αγορές"},
	Fees: []string{"Προμήθειες"}, Interest: []string{"Τόκοι"},
	AccountKinds: []string{"Τρεχούμενος λογαριασμός", "Λογαριασμός ταμιευτηρίου"},
	In:           []string{"Μισθοδοσία", "Εισερχόμενο έμβασμα", "Επιστροφή"}, Out: []string{"Αγορά με κάρτα", "Εξερχόμενο έμβασμα", "Πάγια εντολή", "Ανάληψη μετρητών"},
}

var russian = &Lexicon{Lang: "ru", Class: HeldOut,
	Title: []string{"Выписка по счёту", "Выписка по лицевому счёту"}, Account: []string{"Номер счёта", "Счёт №"},
	Period: []string{"Период", "За период"}, Currency: []string{"Валюта счёта"}, Page: []string{"Страница"},
	Date: []string{"Дата проводки", "Дата"}, ValueDate: []string{"Дата валютирования"},
	Desc: []string{"Назначение платежа", "Описание операции"}, Ref: []string{"Номер документа"},
	Debit: []string{"Списание", "Расход"}, Credit: []string{"Зачисление", "Приход"}, Amount: []string{"Сумма"},
	Balance: []string{"Остаток"},
	Opening: []string{"Входящий остаток", "Остаток на начало периода"}, Closing: []string{"Исходящий остаток", "Остаток на конец периода"},
	Totals: []string{"Итого обороты", "Итого"}, DayBalance: []string{"Остаток на конец дня"},
	CardTitle: []string{"Выписка по кредитной карте"}, Payments: []string{"Погашения"}, Purchases: []string{"Покупки"},
	Fees: []string{"Комиссии"}, Interest: []string{"Проценты"},
	AccountKinds: []string{"Текущий счёт", "Сберегательный счёт"},
	In:           []string{"Заработная плата", "Входящий перевод", "Возврат"}, Out: []string{"Оплата картой", "Исходящий перевод", "Автоплатёж", "Снятие наличных"},
}

var knownEnglish = &Lexicon{Lang: "en", Class: Known,
	Title: []string{"Account Statement", "Bank Statement"}, Account: []string{"Account number", "IBAN"},
	Period: []string{"Statement period", "Period"}, Currency: []string{"Currency"}, Page: []string{"Page"},
	Date: []string{"Date", "Posting Date"}, ValueDate: []string{"Value Date"},
	Desc: []string{"Description", "Details"}, Ref: []string{"Reference", "Cheque No"},
	Debit: []string{"Debit", "Money Out"}, Credit: []string{"Credit", "Money In"}, Amount: []string{"Amount"},
	Balance: []string{"Balance"},
	Opening: []string{"Opening balance", "Balance brought forward"}, Closing: []string{"Closing balance", "New balance"},
	Totals: []string{"Total", "Totals"}, DayBalance: []string{"Balance"},
	CardTitle: []string{"Credit Card Statement"}, Payments: []string{"Payments and credits"}, Purchases: []string{"Purchases"},
	Fees: []string{"Fees charged"}, Interest: []string{"Interest charged"},
	AccountKinds: []string{"Current account", "Savings account"},
	In:           []string{"Salary", "Transfer from", "Refund"}, Out: []string{"Card payment", "Transfer to", "Direct debit", "ATM withdrawal"},
}

var knownGerman = &Lexicon{Lang: "de", Class: Known,
	Title: []string{"Kontoauszug"}, Account: []string{"Kontonummer", "IBAN"},
	Period: []string{"Zeitraum"}, Currency: []string{"Währung"}, Page: []string{"Seite"},
	Date: []string{"Buchungstag", "Buchungsdatum"}, ValueDate: []string{"Valuta", "Wertstellung"},
	Desc: []string{"Verwendungszweck", "Buchungstext"}, Ref: []string{"Referenz"},
	Debit: []string{"Soll", "Belastung"}, Credit: []string{"Haben", "Gutschrift"}, Amount: []string{"Betrag"},
	Balance: []string{"Saldo", "Kontostand"},
	Opening: []string{"Alter Kontostand", "Anfangssaldo"}, Closing: []string{"Neuer Kontostand", "Endsaldo"},
	Totals: []string{"Summe"}, DayBalance: []string{"Saldo"},
	CardTitle: []string{"Kreditkartenabrechnung"}, Payments: []string{"Zahlungen"}, Purchases: []string{"Umsätze"},
	Fees: []string{"Gebühren"}, Interest: []string{"Zinsen"},
	AccountKinds: []string{"Girokonto", "Sparkonto"},
	In:           []string{"Gehalt", "Gutschrift von"}, Out: []string{"Kartenzahlung", "Lastschrift", "Überweisung an"},
}

var knownFrench = &Lexicon{Lang: "fr", Class: Known,
	Title: []string{"Relevé de compte"}, Account: []string{"Numéro de compte", "IBAN"},
	Period: []string{"Période"}, Currency: []string{"Devise"}, Page: []string{"Page"},
	Date: []string{"Date", "Date opération"}, ValueDate: []string{"Date valeur"},
	Desc: []string{"Libellé", "Désignation"}, Ref: []string{"Référence"},
	Debit: []string{"Débit"}, Credit: []string{"Crédit"}, Amount: []string{"Montant"},
	Balance: []string{"Solde"},
	Opening: []string{"Solde précédent", "Ancien solde"}, Closing: []string{"Nouveau solde", "Solde final"},
	Totals: []string{"Total des opérations"}, DayBalance: []string{"Solde"},
	CardTitle: []string{"Relevé de carte de crédit"}, Payments: []string{"Paiements"}, Purchases: []string{"Achats"},
	Fees: []string{"Frais"}, Interest: []string{"Intérêts"},
	AccountKinds: []string{"Compte courant", "Compte épargne"},
	In:           []string{"Salaire", "Virement reçu"}, Out: []string{"Paiement carte", "Prélèvement", "Virement émis"},
}

var knownSpanish = &Lexicon{Lang: "es", Class: Known,
	Title: []string{"Extracto de cuenta"}, Account: []string{"Número de cuenta", "IBAN"},
	Period: []string{"Periodo"}, Currency: []string{"Moneda"}, Page: []string{"Página"},
	Date: []string{"Fecha", "Fecha operación"}, ValueDate: []string{"Fecha valor"},
	Desc: []string{"Concepto", "Descripción"}, Ref: []string{"Referencia"},
	Debit: []string{"Cargo", "Debe"}, Credit: []string{"Abono", "Haber"}, Amount: []string{"Importe"},
	Balance: []string{"Saldo"},
	Opening: []string{"Saldo anterior", "Saldo inicial"}, Closing: []string{"Saldo final", "Nuevo saldo"},
	Totals: []string{"Totales"}, DayBalance: []string{"Saldo"},
	CardTitle: []string{"Extracto de tarjeta de crédito"}, Payments: []string{"Pagos"}, Purchases: []string{"Compras"},
	Fees: []string{"Comisiones"}, Interest: []string{"Intereses"},
	AccountKinds: []string{"Cuenta corriente", "Cuenta de ahorro"},
	In:           []string{"Nómina", "Transferencia recibida"}, Out: []string{"Compra tarjeta", "Recibo", "Transferencia emitida"},
}

var knownItalian = &Lexicon{Lang: "it", Class: Known,
	Title: []string{"Estratto conto"}, Account: []string{"Numero conto", "IBAN"},
	Period: []string{"Periodo"}, Currency: []string{"Divisa"}, Page: []string{"Pagina"},
	Date: []string{"Data contabile", "Data"}, ValueDate: []string{"Data valuta"},
	Desc: []string{"Descrizione", "Causale"}, Ref: []string{"Riferimento"},
	Debit: []string{"Dare", "Addebiti"}, Credit: []string{"Avere", "Accrediti"}, Amount: []string{"Importo"},
	Balance: []string{"Saldo"},
	Opening: []string{"Saldo iniziale", "Saldo precedente"}, Closing: []string{"Saldo finale"},
	Totals: []string{"Totale movimenti"}, DayBalance: []string{"Saldo"},
	CardTitle: []string{"Estratto conto carta di credito"}, Payments: []string{"Pagamenti"}, Purchases: []string{"Acquisti"},
	Fees: []string{"Commissioni"}, Interest: []string{"Interessi"},
	AccountKinds: []string{"Conto corrente", "Conto deposito"},
	In:           []string{"Stipendio", "Bonifico da"}, Out: []string{"Pagamento POS", "Addebito SDD", "Bonifico a"},
}

// syllables make invented words: pronounceable, in no language.
var (
	onsets = []string{"b", "br", "d", "dr", "f", "g", "gl", "k", "kr", "l", "m", "n", "p", "pl", "r", "s", "sk", "t", "tr", "v", "vr", "z", "zv"}
	nuclei = []string{"a", "e", "i", "o", "u", "ai", "eo", "ou", "ä", "ø", "y"}
	codas  = []string{"", "", "n", "m", "r", "l", "x", "st", "nt", "rk", "sh"}
)

// InventedWord makes one word of three or four syllables, capitalised:
// long enough that no language's word is among them by chance.
func InventedWord(r *rand.Rand) string {
	var b strings.Builder
	n := 3 + r.IntN(2)
	for i := range n {
		b.WriteString(onsets[r.IntN(len(onsets))])
		b.WriteString(nuclei[r.IntN(len(nuclei))])
		if i == n-1 || r.IntN(3) == 0 {
			b.WriteString(codas[r.IntN(len(codas))])
		}
	}
	w := []rune(b.String())
	w[0] = unicode.ToUpper(w[0])
	return string(w)
}

// InventedLexicon makes a lexicon of invented words: one phrase of one or
// two words per role, none shared between roles.
func InventedLexicon(r *rand.Rand) *Lexicon {
	seen := map[string]bool{}
	phrase := func() []string {
		for {
			p := InventedWord(r)
			if r.IntN(3) == 0 {
				p += " " + strings.ToLower(InventedWord(r))
			}
			if !seen[p] {
				seen[p] = true
				return []string{p}
			}
		}
	}
	l := &Lexicon{Lang: "x-invented", Class: Invented}
	for _, f := range []*[]string{&l.Title, &l.Account, &l.Period, &l.Currency, &l.Page, &l.Date, &l.ValueDate, &l.Desc, &l.Ref,
		&l.Debit, &l.Credit, &l.Amount, &l.Balance, &l.Opening, &l.Closing, &l.Totals, &l.DayBalance, &l.CardTitle,
		&l.Payments, &l.Purchases, &l.Fees, &l.Interest} {
		*f = phrase()
	}
	l.AccountKinds = append(phrase(), phrase()...)
	l.In = append(phrase(), phrase()...)
	l.Out = append(phrase(), phrase()...)
	return l
}
