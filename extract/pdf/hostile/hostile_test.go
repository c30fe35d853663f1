package hostile

import (
	"bytes"
	"compress/zlib"
	"io"
	"strings"
	"testing"
)

// TestSpaces inflates the hand-coded deflate stream with Go's zlib, which
// also checks its Adler-32, for runs around the 258-byte match length.
func TestSpaces(t *testing.T) {
	for _, n := range []int64{0, 1, 2, 257, 258, 259, 516, 1000, 70000} {
		z, err := zlib.NewReader(bytes.NewReader(Spaces("head ", n, " tail\xff")))
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		got, err := io.ReadAll(z)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if want := "head " + strings.Repeat(" ", int(n)) + " tail\xff"; string(got) != want {
			t.Errorf("n=%d: inflated %d bytes, want %d", n, len(got), len(want))
		}
	}
}

// TestBombsAreSmall: a gigabyte behind two Flate layers fits in a few KB.
func TestBombsAreSmall(t *testing.T) {
	for name, b := range map[string][]byte{"FlateBomb": FlateBomb(GiB), "ProbeBomb": ProbeBomb(GiB)} {
		if len(b) > 16<<10 {
			t.Errorf("%s(1 GiB) is %d bytes, want a few KB", name, len(b))
		}
	}
}
