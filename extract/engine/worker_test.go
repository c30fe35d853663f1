package engine

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"passbook/extract"
	"passbook/extract/source"
	"passbook/extract/worker"
)

// TestMain lets the test binary be the worker child (and misbehave on
// purpose), so the process boundary is tested for real.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "worker":
			if err := worker.Serve(os.Stdin, os.Stdout, New()); err != nil {
				os.Exit(2)
			}
			os.Exit(0)
		case "crash":
			os.Stdout.WriteString("{\"done\":1,\"total\":3}\n")
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		}
	}
	os.Exit(m.Run())
}

// child is a pool of one worker: this test binary in mode.
func child(t *testing.T, mode string, limits worker.Limits) *worker.Pool {
	cfg := worker.DefaultConfig(os.Args[0], []string{mode}, 1)
	cfg.Limits = limits
	p := worker.NewPool(cfg)
	t.Cleanup(func() { p.Close() })
	return p
}

// wall is the default limits with every budget set to d.
func wall(d time.Duration) worker.Limits {
	l := worker.DefaultLimits()
	l.CPUBase, l.CPUPerPage, l.CPUMax, l.Probe = d, 0, d, d
	return l
}

// memory is the default limits with the address space capped at n bytes.
func memory(n uint64) worker.Limits {
	l := worker.DefaultLimits()
	l.MemoryBytes = n
	return l
}

func TestIsolatedConvert(t *testing.T) {
	data, err := os.ReadFile("../../testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var progress []int
	res, err := child(t, "worker", worker.DefaultLimits()).Convert(context.Background(), data, extract.Options{
		Progress: func(done, total int) { progress = append(progress, done, total) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Transactions) != 8 || res.PageCount != 1 {
		t.Errorf("got %d transactions on %d pages, want 8 on 1", len(res.Transactions), res.PageCount)
	}
	// A job that ends within the pool's progress interval reports no
	// progress (extract/worker's tests hold that to time); one the machine
	// slowed reports its one page.
	if len(progress) != 0 && !slices.Equal(progress, []int{1, 1}) {
		t.Errorf("progress reports %v, want none or [1 1]", progress)
	}
	info, err := child(t, "worker", worker.DefaultLimits()).Probe(context.Background(), data, "")
	if err != nil || info.Kind != "pdf" || info.PageCount != 1 {
		t.Errorf("Probe = %+v, %v", info, err)
	}
}

func TestIsolatedFailures(t *testing.T) {
	enc, err := os.ReadFile("../../testdata/encrypted_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		iso  *worker.Pool
		data []byte
		want error
		// also is a second acceptable outcome: a memory cap hits either
		// MuPDF (an error it reports) or the Go runtime (a crash).
		also error
	}{
		{"sentinel crosses the boundary", child(t, "worker", worker.DefaultLimits()), enc, source.ErrPassword, nil},
		{"unsupported bytes", child(t, "worker", worker.DefaultLimits()), []byte("just text"), source.ErrUnsupported, nil},
		{"child dies", child(t, "crash", worker.DefaultLimits()), enc, source.ErrCrashed, nil},
		{"child hangs past its budget", child(t, "hang", wall(300*time.Millisecond)), enc, source.ErrLimit, nil},
		{"memory cap", child(t, "worker", memory(64<<20)), bigPNG(t), source.ErrLimit, source.ErrCrashed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.iso.Convert(context.Background(), tt.data, extract.Options{})
			if !errors.Is(err, tt.want) && (tt.also == nil || !errors.Is(err, tt.also)) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := child(t, "hang", worker.DefaultLimits()).Convert(ctx, enc, extract.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}

// bigPNG is a 4000x4000 grey page: decoding it alone needs 16 MB, reading
// it far more.
func bigPNG(t *testing.T) []byte {
	g := image.NewGray(image.Rect(0, 0, 4000, 4000))
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestIsolatedRenderPage draws a page through a worker child, as the server
// does, and checks the image and the page size in points that the review
// screen places row boxes with.
func TestIsolatedRenderPage(t *testing.T) {
	data, err := os.ReadFile("../../testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	p := child(t, "worker", worker.DefaultLimits())
	r, err := p.RenderPage(context.Background(), data, "", 1, 600)
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
	if _, err := p.RenderPage(context.Background(), data, "", 2, 600); !errors.Is(err, source.ErrNoPage) {
		t.Errorf("page 2 of 1: got %v, want ErrNoPage", err)
	}
	enc, err := os.ReadFile("../../testdata/encrypted_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New().RenderPage(enc, "", 1, 600); !errors.Is(err, source.ErrPassword) {
		t.Errorf("encrypted without password: got %v, want ErrPassword", err)
	}
	if _, err := New().RenderPage(enc, "s3cret", 1, source.MaxRenderWidth); err != nil {
		t.Errorf("encrypted with password, widest: %v", err)
	}
}

// BenchmarkIsolatedRenderPage draws the sample's page as the review shows
// it, through a worker child, as the server does it.
func BenchmarkIsolatedRenderPage(b *testing.B) {
	data, err := os.ReadFile("../../testdata/sample_statement.pdf")
	if err != nil {
		b.Fatal(err)
	}
	cfg := worker.DefaultConfig(os.Args[0], []string{"worker"}, 1)
	p := worker.NewPool(cfg)
	defer p.Close()
	for b.Loop() {
		r, err := p.RenderPage(context.Background(), data, "", 1, 1000)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(r.PNG)))
	}
}
