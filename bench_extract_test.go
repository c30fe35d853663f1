//go:build benchservice

package main

// TestBenchExtract is `make bench-extract`: `passbook extract -d out DIR`
// (PASSBOOK_BIN) on 40 generated text statements against MuPDF's own
// `mutool draw -F stext` over the same files, one process per file, in
// pages a second. The goal is 0.8 × cores × mutool's rate on one core. It
// reports; it asserts only that the command converts every file.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

func TestBenchExtract(t *testing.T) {
	bin := os.Getenv("PASSBOOK_BIN")
	if bin == "" {
		t.Fatal("PASSBOOK_BIN must name the passbook binary to measure (make bench-extract sets it)")
	}
	if _, err := exec.LookPath("mutool"); err != nil {
		t.Fatalf("mutool is needed (Debian's mupdf-tools; make bench-extract installs it): %v", err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "statements")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	// 40 statements of 1 to 4 pages, 30 rows a page: 100 pages.
	var files []string
	pages := 0
	for i := range 40 {
		n := i%4 + 1
		var b bytes.Buffer
		if _, err := writeStatement(&b, n, 30); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(in, fmt.Sprintf("statement-%02d.pdf", i+1))
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		pages += n
	}
	cores := runtime.NumCPU()
	const reps = 3

	// mutool, one process per file, one file after another: its rate on one core.
	mutoolOne := func(p string) {
		if out, err := exec.Command("mutool", "draw", "-F", "stext", "-o", "/dev/null", p).CombinedOutput(); err != nil {
			t.Fatalf("mutool %s: %v %s", p, err, out)
		}
	}
	best := func(f func()) time.Duration {
		var b time.Duration
		for range reps {
			start := time.Now()
			f()
			if d := time.Since(start); b == 0 || d < b {
				b = d
			}
		}
		return b
	}
	serial := best(func() {
		for _, p := range files {
			mutoolOne(p)
		}
	})
	// mutool again with a process per core at once: what this machine,
	// shared as it is, gives in parallel.
	parallel := best(func() {
		ch := make(chan string)
		var wg sync.WaitGroup
		for range cores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for p := range ch {
					mutoolOne(p)
				}
			}()
		}
		for _, p := range files {
			ch <- p
		}
		close(ch)
		wg.Wait()
	})
	ours := best(func() {
		out := filepath.Join(dir, "out")
		os.RemoveAll(out)
		cmd := exec.Command(bin, "extract", "-d", out, in)
		cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			// Exit 8 (not continuous) is expected: 40 copies of one
			// statement are duplicates. Anything with 2 or 4 is not.
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode()&(exitNotConverted|exitNotOK|exitFailed) != 0 {
				t.Fatalf("%s extract: %v\n%s", bin, err, stderr.Bytes())
			}
		}
		if n, _ := filepath.Glob(filepath.Join(out, "*.json")); len(n) != len(files) {
			t.Fatalf("%d outputs, want %d", len(n), len(files))
		}
	})
	pps := func(d time.Duration) float64 { return float64(pages) / d.Seconds() }
	mutoolPPS := pps(serial)
	fmt.Printf("\n`passbook extract -d out DIR`: %d text statements, %d pages, %d cores (best of %d)\n\n", len(files), pages, cores, reps)
	fmt.Printf("| | time | pages/s |\n|---|---|---|\n")
	fmt.Printf("| mutool draw -F stext, a process per file, one after another | %.2f s | %.0f |\n", serial.Seconds(), mutoolPPS)
	fmt.Printf("| mutool draw -F stext, a process per file, %d at once | %.2f s | %.0f |\n", cores, parallel.Seconds(), pps(parallel))
	fmt.Printf("| passbook extract -d out DIR | %.2f s | %.0f |\n", ours.Seconds(), pps(ours))
	fmt.Printf("\npassbook = %.2f × cores × mutool (goal ≥ 0.8); %.2f × mutool with %d processes at once\n",
		pps(ours)/(float64(cores)*mutoolPPS), pps(ours)/pps(parallel), cores)
}
