package extract

import (
	"strings"
	"testing"

	"passbook/extract/language"
)

// A page's headings and labels tell its language, read with or without
// accents; English, or a page that tells nothing, is "".
func TestLanguage(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Relevé de compte Date Libellé Débit Crédit Solde précédent", "fr"},
		{"Releve de compte Date Libelle Debit Credit Solde precedent", "fr"},
		{"Kontoauszug Buchungstag Verwendungszweck Soll Haben Kontostand", "de"},
		{"Extracto de cuenta Fecha Concepto Cargos Abonos Saldo anterior", "es"},
		{"Estratto conto Data Descrizione Addebiti Accrediti Saldo iniziale", "it"},
		{"Rekeningafschrift Boekdatum Omschrijving Bedrag Af Bij Saldo", "nl"},
		{"Extrato de conta Data Descrição Débito Crédito Saldo anterior", "pt"},
		{"Statement Date Description Withdrawals Deposits Balance", ""},
		{"Card payment Lidl Madrid", ""},
	} {
		if got := language.Language(strings.Fields(tc.text)); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}
