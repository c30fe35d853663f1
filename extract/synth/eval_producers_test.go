package synth

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// evalProducers are the producers -producer names.
func evalProducers(t *testing.T) []string {
	t.Helper()
	if *evalProducer == "all" {
		return Producers
	}
	ps := strings.Split(*evalProducer, ",")
	for _, p := range ps {
		if !slices.Contains(Producers, p) {
			t.Fatalf("-producer %s: want all or some of %v", p, Producers)
		}
	}
	return ps
}

// floors reads a floor flag: one share for every producer, or
// producer=share for each.
func floors(t *testing.T, name, v string, producers []string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	if x, err := strconv.ParseFloat(v, 64); err == nil {
		for _, p := range Producers {
			out[p] = x
		}
		return out
	}
	for _, kv := range strings.Split(v, ",") {
		p, s, _ := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || !slices.Contains(Producers, p) {
			t.Fatalf("-%s %s: want a share or producer=share,... (producers %v)", name, v, Producers)
		}
		out[p] = x
	}
	for _, p := range producers {
		if _, ok := out[p]; !ok {
			t.Fatalf("-%s %s: no floor for %s", name, v, p)
		}
	}
	return out
}
