package redact_test

import (
	"testing"

	"passbook/extract/redact"
	"passbook/extract/synth"
)

// TestCopyGeneratedStatements: statements of every layout the generator
// draws (columns, signs, cards, several accounts, whole units, a glyph
// at a time) are all copied; a refusal names what could not be made safe.
func TestCopyGeneratedStatements(t *testing.T) {
	for seed := int64(1); seed <= 16; seed++ {
		s, err := synth.Generate(seed, synth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := redact.Copy(s.PDF, read, redact.Options{Seed: uint64(seed)}); err != nil {
			t.Errorf("seed %d (%v): %v", seed, s.Features, err)
		}
	}
}
