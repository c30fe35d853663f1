package redact

import (
	"math/rand/v2"

	"github.com/shopspring/decimal"
)

// BuildUnchecked is the copy before its checks, for looking at why one
// was refused.
func BuildUnchecked(data []byte, read Reader, seed uint64) ([]byte, error) {
	orig, err := read(data, "")
	if err != nil {
		return nil, err
	}
	out, _, err := build(data, orig, decimal.RequireFromString("1.5"), rand.New(rand.NewPCG(seed, seed)), "")
	return out, err
}
