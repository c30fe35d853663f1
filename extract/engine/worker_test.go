package engine

import (
	"context"
	"errors"
	"os"
	"passbook/extract"
	"passbook/extract/worker"
	"testing"
	"time"
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

func child(mode string, limits worker.Limits) worker.Isolated {
	return worker.Isolated{Exe: os.Args[0], Args: []string{mode}, Limits: limits}
}

func TestIsolatedConvert(t *testing.T) {
	data, err := os.ReadFile("../../testdata/sample_statement.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var progress []int
	res, err := child("worker", worker.DefaultLimits).Convert(context.Background(), data, extract.Options{
		Progress: func(done, total int) { progress = append(progress, done, total) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Transactions) != 8 || res.PageCount != 1 {
		t.Errorf("got %d transactions on %d pages, want 8 on 1", len(res.Transactions), res.PageCount)
	}
	if len(progress) != 2 || progress[0] != 1 || progress[1] != 1 {
		t.Errorf("progress reports %v, want [1 1]", progress)
	}
	info, err := child("worker", worker.DefaultLimits).Probe(context.Background(), data, "")
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
		iso  worker.Isolated
		data []byte
		want error
		// also is a second acceptable outcome: a memory cap hits either
		// MuPDF (an error it reports) or the Go runtime (a crash).
		also error
	}{
		{"sentinel crosses the boundary", child("worker", worker.DefaultLimits), enc, extract.ErrPassword, nil},
		{"unsupported bytes", child("worker", worker.DefaultLimits), []byte("just text"), extract.ErrUnsupported, nil},
		{"child dies", child("crash", worker.DefaultLimits), enc, extract.ErrCrashed, nil},
		{"child hangs past the wall clock", child("hang", worker.Limits{Wall: 300 * time.Millisecond}), enc, extract.ErrLimit, nil},
		{"memory cap", child("worker", worker.Limits{Wall: time.Minute, MemoryBytes: 64 << 20}), enc, extract.ErrLimit, extract.ErrCrashed},
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
	if _, err := child("hang", worker.DefaultLimits).Convert(ctx, enc, extract.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}
