//go:build benchservice

package main

// TestBenchStart is `make bench-start`: it measures what a start of the
// binary costs, `passbook version` and a worker's start (`passbook worker`
// started and given end of input, as a server's pool starts one), beside a
// Go hello world built here with the same toolchain, in one run, the
// commands interleaved so that the machine's load falls on all alike. It
// prints the median and 90th percentile of each run's CPU time (user and
// system, from the kernel's accounting of the child), its wall time and
// each median as a multiple of the hello world's. It
// reports; it asserts only that each command succeeds. Last it lists the
// binary's costliest package inits, where a start's time goes. BEFORE_BIN names
// an older build to measure in the same run, e.g.
//
//	BEFORE_BIN=/tmp/passbook-main make bench-start

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestBenchStart(t *testing.T) {
	bin := os.Getenv("PASSBOOK_BIN")
	if bin == "" {
		t.Fatal("PASSBOOK_BIN must name the passbook binary to measure (make bench-start sets it)")
	}
	runs := 200
	if s := os.Getenv("BENCH_RUNS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("BENCH_RUNS=%q: want a positive count", s)
		}
		runs = n
	}
	dir := t.TempDir()
	hello := filepath.Join(dir, "hello")
	src := filepath.Join(dir, "hello.go")
	if err := os.WriteFile(src, []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-trimpath", "-o", hello, src)
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build hello world: %v\n%s", err, out)
	}

	type command struct {
		name string
		argv []string
	}
	cmds := []command{{"hello world", []string{hello}}}
	add := func(label, b string) {
		cmds = append(cmds,
			command{label + " version", []string{b, "version"}},
			command{label + " worker start", []string{b, "worker", "--count-pages-to", "10000"}})
	}
	if before := os.Getenv("BEFORE_BIN"); before != "" {
		add("before:", before)
		add("this:", bin)
	} else {
		add("passbook", bin)
	}

	type sample struct{ cpu, wall time.Duration }
	samples := make([][]sample, len(cmds))
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	// One warm-up run each puts the binaries in the page cache.
	for round := -1; round < runs; round++ {
		for i, c := range cmds {
			cmd := exec.Command(c.argv[0], c.argv[1:]...)
			cmd.Stdin = devnull // a worker ends at end of input
			start := time.Now()
			out, err := cmd.Output()
			wall := time.Since(start)
			if err != nil {
				t.Fatalf("%s: %v\n%s", c.name, err, out)
			}
			if round < 0 {
				continue
			}
			ps := cmd.ProcessState
			samples[i] = append(samples[i], sample{cpu: ps.UserTime() + ps.SystemTime(), wall: wall})
		}
	}
	quantile := func(ds []time.Duration, q float64) time.Duration {
		ds = slices.Clone(ds)
		slices.Sort(ds)
		return ds[int(q*float64(len(ds)-1))]
	}
	var helloCPU, helloWall time.Duration
	t.Logf("%d runs each; CPU is user+system of the child", runs)
	t.Logf("%-28s %10s %10s %10s %10s %8s %8s", "command", "CPU p50", "CPU p90", "wall p50", "wall p90", "CPU ×", "wall ×")
	for i, c := range cmds {
		var cpu, wall []time.Duration
		for _, s := range samples[i] {
			cpu, wall = append(cpu, s.cpu), append(wall, s.wall)
		}
		cpu50, wall50 := quantile(cpu, 0.5), quantile(wall, 0.5)
		if i == 0 {
			helloCPU, helloWall = cpu50, wall50
		}
		t.Logf("%-28s %10s %10s %10s %10s %8s %8s", c.name,
			msec(cpu50), msec(quantile(cpu, 0.9)), msec(wall50), msec(quantile(wall, 0.9)),
			fmt.Sprintf("%.1f", float64(cpu50)/float64(helloCPU)), fmt.Sprintf("%.1f", float64(wall50)/float64(helloWall)))
	}
	// Where a start goes: the package inits of the binary measured, the
	// costliest first, each its fastest of 20 runs (GODEBUG=inittrace=1).
	fastest := map[string]float64{}
	for range 20 {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("inittrace: %v\n%s", err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			// init PKG @T ms, CLOCK ms clock, BYTES bytes, ALLOCS allocs
			f := strings.Fields(line)
			if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
				continue
			}
			v, err := strconv.ParseFloat(f[4], 64)
			if err != nil {
				continue
			}
			if old, ok := fastest[f[1]]; !ok || v < old {
				fastest[f[1]] = v
			}
		}
	}
	pkgs := slices.SortedFunc(maps.Keys(fastest), func(a, b string) int { return cmp.Compare(fastest[b], fastest[a]) })
	total := 0.0
	for _, p := range pkgs {
		total += fastest[p]
	}
	t.Logf("package inits of %s: %.2f ms in all (%d packages); the costliest:", bin, total, len(pkgs))
	for _, p := range pkgs[:min(8, len(pkgs))] {
		t.Logf("  %6.3f ms  %s", fastest[p], p)
	}
}

// msec prints a duration in ms to a hundredth.
func msec(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}
