package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// holdCores starts perCore processes a core that spin until the test ends,
// at the test's own priority (the server's; its workers run niced below
// it), and returns once each has run.
func holdCores(t *testing.T, perCore int) {
	t.Helper()
	var pids []int
	for range perCore * runtime.NumCPU() {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		pids = append(pids, cmd.Process.Pid)
	}
	for _, pid := range pids {
		waitFor(t, "a spinning process to run", func() string {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			if err != nil {
				return "gone"
			}
			f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
			if len(f) > 12 && (f[11] != "0" || f[12] != "0") {
				return "ran"
			}
			return ""
		})
	}
}

// busyRun uploads each of docs to a server while other processes hold
// every core, and waits for each to settle; it returns how many failed,
// with a line of figures.
func busyRun(t *testing.T, docs []busyDoc, perCore int) (failed int, figures string) {
	t.Helper()
	// A process of its own (PASSBOOK_STRESS_BIN runs another build, for
	// a "before" figure).
	srv := startNode(t, []string{"--data", filepath.Join(t.TempDir(), "p.db")})
	key := waitFor(t, "the first run's key", func() string { return keyRE.FindString(srv.stdout.String()) })
	c := client{t: t, base: srv.base, key: key}
	holdCores(t, perCore)
	start := time.Now()
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = c.upload(d.name, d.data)
	}
	settled := settleTimes(c, ids, 30*time.Minute)
	byKind := map[string][]string{}
	for i, d := range docs {
		st := c.status(ids[i])
		if st.Status != "completed" {
			failed++
			t.Errorf("%s (%s) on a busy machine: %s %s %s", d.name, d.kind, st.Status, st.ErrorCode, st.Error)
		}
		byKind[d.kind] = append(byKind[d.kind], fmt.Sprintf("%.0fs", settled[ids[i]].Sub(start).Seconds()))
	}
	requeued := strings.Count(srv.stderr.String(), "queued again")
	return failed, fmt.Sprintf("%d documents with %d spinning processes a core: %d failed, %d conversions queued again for a busy machine; settled after %v",
		len(docs), perCore, failed, requeued, byKind)
}

// busyDoc is one upload of busyRun.
type busyDoc struct {
	kind, name string
	data       []byte
}

// TestBusySlice converts text statements and a scan while other processes
// hold every core (issue 41 point 10): none fails. make stress runs more
// (TestStressBusy).
func TestBusySlice(t *testing.T) {
	files := newSoakFiles(t)
	docs := []busyDoc{{"text", "one.pdf", files.text[0]}, {"text", "three.pdf", files.text[2]}, {"scan", "scan.png", files.scan}}
	failed, figures := busyRun(t, docs, 1)
	fmt.Println("BUSY", figures)
	if failed != 0 {
		t.Errorf("%d good documents failed on a busy machine", failed)
	}
}
