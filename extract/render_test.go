package extract

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"math"
	"os"
	"testing"
)

func TestIsolatedRenderPage(t *testing.T) {
	data, err := os.ReadFile("../testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	r, err := child("worker", DefaultLimits).RenderPage(context.Background(), data, "", 1, 600)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(r.PNG))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if w := img.Bounds().Dx(); math.Abs(float64(w-600)) > 1 {
		t.Errorf("width: got %d px, want 600", w)
	}
	// The sample is A4: 595 x 842 points.
	if math.Abs(r.Width-595.3) > 1 || math.Abs(r.Height-841.9) > 1 {
		t.Errorf("page size: got %.1f x %.1f pt, want A4", r.Width, r.Height)
	}
	if _, err := child("worker", DefaultLimits).RenderPage(context.Background(), data, "", 2, 600); !errors.Is(err, ErrNoPage) {
		t.Errorf("page 2 of 1: got %v, want ErrNoPage", err)
	}
	enc, err := os.ReadFile("../testdata/encrypted_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RenderPage(enc, "", 1, 600); !errors.Is(err, ErrPassword) {
		t.Errorf("encrypted without password: got %v, want ErrPassword", err)
	}
	if _, err := RenderPage(enc, "s3cret", 1, 99999); err != nil {
		t.Errorf("encrypted with password, huge width: %v", err)
	}
}

// BenchmarkRenderPage draws the sample's page as the review shows it.
func BenchmarkRenderPage(b *testing.B) {
	data, err := os.ReadFile("../testdata/sample_statement.pdf")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		r, err := RenderPage(data, "", 1, 1000)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(r.PNG)))
	}
}

// BenchmarkIsolatedRenderPage is the same through a worker child, as the
// server does it.
func BenchmarkIsolatedRenderPage(b *testing.B) {
	data, err := os.ReadFile("../testdata/sample_statement.pdf")
	if err != nil {
		b.Fatal(err)
	}
	iso := child("worker", DefaultLimits)
	for b.Loop() {
		if _, err := iso.RenderPage(context.Background(), data, "", 1, 1000); err != nil {
			b.Fatal(err)
		}
	}
}
