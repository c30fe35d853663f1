//go:build stress

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestStressUpgrade is an upgrade under load: while four clients upload
// without pause (uploaders: each upload with its own Idempotency-Key,
// retried until acknowledged, as the docs advise), the server is stopped (SIGTERM) and
// started again on the same data file from a newer build (this tree built
// afresh, with another version). No acknowledged upload may be lost or
// stuck, none converted twice, and the pages charged must be exactly the
// pages of the documents kept.
func TestStressUpgrade(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "p.db")
	next := filepath.Join(dir, "passbook-next")
	build := exec.Command("go", "build", "-o", next, "-ldflags", "-X main.version=upgrade-next", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the newer passbook: %v\n%s", err, out)
	}
	if out, err := exec.Command(next, "version").Output(); err != nil || !strings.Contains(string(out), "upgrade-next") {
		t.Fatalf("the newer build says %q (%v)", out, err)
	}
	var short, long bytes.Buffer
	if _, err := writeStatement(&short, 1, 20); err != nil {
		t.Fatal(err)
	}
	if _, err := writeStatement(&long, 8, 40); err != nil {
		t.Fatal(err)
	}
	docs := [][]byte{short.Bytes(), long.Bytes()}

	old := startStress(t, data)
	apiKey := keyRE.FindString(old.stdout.String())
	var base atomic.Value
	base.Store(old.base)
	up := startUploaders(t, 4, func() []string { return []string{base.Load().(string)} }, apiKey, docs)
	up.more(4)
	before := up.count()
	// The upgrade: stop, then start the newer build on the same data file.
	start := time.Now()
	old.stop(t)
	stopped := time.Since(start)
	t.Setenv("PASSBOOK_STRESS_BIN", next)
	srv := startStress(t, data)
	down := time.Since(start)
	base.Store(srv.base)
	up.more(4)
	acked, _, retries := up.stop()

	c := client{t: t, base: srv.base, key: apiKey}
	ids, distinct := ackedIDs(acked)
	stuck := waitSettled(t, c, ids, 3*time.Minute)
	var failed int
	for _, id := range ids {
		if st := c.status(id); st.Status != "completed" {
			failed++
		}
	}
	srv.stop(t)
	f := readFacts(t, data)
	fmt.Printf("STRESS upgrade under load: %d uploads acknowledged (%d before the stop), %d retried attempts; stop took %s, down %s; documents %d: %d completed, %d failed, %d processing (stuck %d), %d jobs left; pages charged %d for %d pages kept; integrity_check %s\n",
		len(acked), before, retries, stopped.Round(time.Millisecond), down.Round(time.Millisecond),
		f.documents, f.completed, f.failed, f.processing, stuck, f.jobs, f.charged, f.pages, f.integrity)
	if before == 0 || len(acked) == before {
		t.Errorf("uploads acknowledged: %d before the upgrade, %d in all: want some on each side", before, len(acked))
	}
	if len(distinct) != len(acked) || f.documents != len(acked) || f.completed != len(acked) || failed != 0 || f.failed != 0 ||
		f.processing != 0 || stuck != 0 || f.jobs != 0 || f.charged != f.pages || f.integrity != "ok" {
		t.Errorf("upgrade: want every acknowledged upload once, completed, none failed or stuck, no job left, quota exact (charged %d, pages %d), integrity ok", f.charged, f.pages)
	}
	if _, err := os.Stat(data); err != nil {
		t.Fatal(err)
	}
}
