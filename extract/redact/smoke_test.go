package redact_test

import (
	"os"
	"strconv"
	"testing"

	"passbook/extract/redact"
	"passbook/extract/synth"
)

func TestSmoke(t *testing.T) {
	seed, _ := strconv.ParseInt(os.Getenv("SEED"), 10, 64)
	s, err := synth.Generate(seed, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile("/tmp/redact_orig.pdf", s.PDF, 0o644)
	out, err := redact.BuildUnchecked(s.PDF, read, 1)
	t.Logf("%v", err)
	os.WriteFile("/tmp/redact_smoke.pdf", out, 0o644)
}

func TestSmokeMany(t *testing.T) {
	for seed := int64(1); seed <= 16; seed++ {
		s, err := synth.Generate(seed, synth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = redact.Copy(s.PDF, read, redact.Options{Seed: uint64(seed)})
		t.Logf("seed %d: %v", seed, err)
	}
}
