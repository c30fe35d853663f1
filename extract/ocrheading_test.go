package extract

import "testing"

func TestRepairHeadingWords(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		ocr   bool
		want  string
	}{
		{"a heading word misread by a letter", []string{"Data", "Descricaéo", "Importancia", "Saldo"}, true, "Data descricao Importancia Saldo"},
		{"misread by two letters, a long word", []string{"Data", "Descrigdo", "Saldo"}, true, "Data descricao Saldo"},
		{"a text layer is read as printed", []string{"Data", "Descricaéo", "Saldo"}, false, "Data Descricaéo Saldo"},
		{"a description line is left alone", []string{"Transferencia", "recibida", "Lisboa", "Balance"}, true, "Transferencia recibida Lisboa Balance"},
		{"short words are never guessed", []string{"Dato", "Descrizione", "Saldo"}, true, "Dato Descrizione Saldo"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &line{ocr: tc.ocr}
			for i, w := range tc.words {
				l.words = append(l.words, Word{Text: w, X0: float64(100 * i), X1: float64(100*i + 60), Y0: 10, Y1: 20})
			}
			repairHeadingWords(l)
			if got := l.text(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
