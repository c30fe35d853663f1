package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"passbook/store/pgtest"
)

// buildRevision builds passbook as it was at git revision rev, into a
// temporary directory, and returns the binary's path.
func buildRevision(t *testing.T, rev string) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", "-c", `git archive --format=tar "$0" | tar -x -C "$1"`, rev, src).CombinedOutput(); err != nil {
		t.Fatalf("git archive %s: %v\n%s", rev, err, out)
	}
	bin := filepath.Join(dir, "passbook-"+rev)
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir, build.Env = src, append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build passbook at %s: %v\n%s", rev, err, out)
	}
	return bin
}

// uploaders are clients that upload without pause, each upload with its
// own Idempotency-Key, sent again (to the next address) until it is
// acknowledged, as the docs advise when a connection fails or the answer
// is 503.
type uploaders struct {
	t       *testing.T
	mu      sync.Mutex
	acked   map[string]string // Idempotency-Key -> file_id
	answers map[int]int       // status -> count, 0 for a failed connection
	retries int
	n       atomic.Int64 // acknowledged
	done    chan struct{}
	wg      sync.WaitGroup
}

// startUploaders starts n clients uploading docs in turn to the addresses
// bases gives, in turn.
func startUploaders(t *testing.T, n int, bases func() []string, apiKey string, docs [][]byte) *uploaders {
	u := &uploaders{t: t, acked: map[string]string{}, answers: map[int]int{}, done: make(chan struct{})}
	for c := range n {
		u.wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-u.done:
					return
				default:
				}
				k := fmt.Sprintf("u%d-%04d", c, i)
				for try := 0; ; try++ {
					bs := bases()
					code, id := post(bs[(c+i+try)%len(bs)], apiKey, docs[i%len(docs)], "", k)
					u.mu.Lock()
					u.answers[code]++
					if code == 200 {
						u.acked[k] = id
						u.retries += try
					}
					u.mu.Unlock()
					if code == 200 {
						u.n.Add(1)
						break
					}
					if code != 0 && code != 503 {
						t.Errorf("upload %s answered %d", k, code)
						return
					}
					if try == 3000 {
						t.Errorf("upload %s not acknowledged after %d tries", k, try)
						return
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	return u
}

// more waits until n more uploads were acknowledged: the load goes on
// between the steps of an upgrade.
func (u *uploaders) more(n int64) {
	u.t.Helper()
	at := u.n.Load()
	waitFor(u.t, "more uploads acknowledged", func() string {
		if u.n.Load() >= at+n {
			return "yes"
		}
		return ""
	})
}

// count is how many uploads were acknowledged so far.
func (u *uploaders) count() int { return int(u.n.Load()) }

// stop ends the clients and returns what they saw: the acknowledged
// uploads, the answers by status, and the tries beyond the first.
func (u *uploaders) stop() (acked map[string]string, answers map[int]int, retries int) {
	close(u.done)
	u.wg.Wait()
	return u.acked, u.answers, u.retries
}

// TestNodesRollingUpgrade replaces three nodes on one PostgreSQL database
// one at a time (SIGTERM, then the next build on the same flags) while
// clients upload without pause, each upload with its own Idempotency-Key,
// sent again to the next node when its connection fails or it is answered
// 503 (issue 41: a rolling upgrade). No running node may answer another
// 5xx, a stopped node of this build must leave no job claimed, and every
// upload must complete once, charged once. make test restarts this build
// once round the nodes; make nodes (NODES_FULL=1) upgrades from the
// previous commit's binary (UPGRADE_FROM, a git revision, HEAD~1 by
// default), then restarts this build round the nodes twice more.
func TestNodesRollingUpgrade(t *testing.T) {
	dsn := pgtest.Database(t)
	thisBuild := os.Args[0]
	from, oldBin, rounds := "this build", thisBuild, 1
	if nodesFull() {
		from = os.Getenv("UPGRADE_FROM")
		if from == "" {
			from = "HEAD~1"
		}
		oldBin, rounds = buildRevision(t, from), 3
	}
	flags := []string{"--data", dsn, "--workers", "1"}
	var nodes []*node
	var all []*node // every node started, for their logs
	for range 3 {
		n := startNodeOf(t, oldBin, flags)
		nodes = append(nodes, n)
		all = append(all, n)
	}
	apiKey := waitFor(t, "the first run's API key", func() string {
		var out string
		for _, n := range nodes {
			out += n.stdout.String()
		}
		return keyRE.FindString(out)
	})
	_, count := openCounter(t, dsn)
	var short, long bytes.Buffer
	if _, err := writeStatement(&short, 1, 20); err != nil {
		t.Fatal(err)
	}
	if _, err := writeStatement(&long, 3, 40); err != nil {
		t.Fatal(err)
	}
	docs := [][]byte{short.Bytes(), long.Bytes()}

	var bases atomic.Value // []string, the nodes' addresses
	setBases := func() {
		var bs []string
		for _, n := range nodes {
			bs = append(bs, n.base)
		}
		bases.Store(bs)
	}
	setBases()
	up := startUploaders(t, 4, func() []string { return bases.Load().([]string) }, apiKey, docs)
	// more waits until n more uploads were acknowledged: the load goes on
	// between the steps of the upgrade.
	more := up.more
	more(4)
	var restarts, leftClaimed int
	start := time.Now()
	for round := range rounds {
		for i, n := range nodes {
			pid := strconv.Itoa(n.cmd.Process.Pid)
			// Claims name the node's pid: a stopped node of this build
			// holds none (issue 41 point 12).
			claimed := "SELECT count(*) FROM jobs WHERE state = 'running' AND claim LIKE '%/' || $1 || '/%'"
			holding := count(claimed, pid)
			n.stop(t)
			held := count(claimed, pid)
			if round > 0 || oldBin == thisBuild {
				leftClaimed += held
			}
			fmt.Printf("NODES round %d: node %d (pid %s, %s) stopped holding %d jobs, %d left claimed\n", round, i, pid,
				map[bool]string{true: "this build", false: from}[round > 0 || oldBin == thisBuild], holding, held)
			nodes[i] = startNodeOf(t, thisBuild, flags)
			all = append(all, nodes[i])
			setBases()
			restarts++
			more(2)
		}
	}
	upgraded := time.Since(start)
	more(4)
	acked, answers, _ := up.stop()

	c := client{t: t, base: nodes[0].base, key: apiKey}
	ids, distinct := ackedIDs(acked)
	stuck := waitSettled(t, c, ids, 5*time.Minute)
	completions := map[string]int{}
	for _, n := range all {
		for _, m := range completedRE.FindAllStringSubmatch(n.stderr.String(), -1) {
			completions[m[1]]++
		}
	}
	var completed, failed, twice int
	for _, id := range ids {
		switch c.status(id).Status {
		case "completed":
			completed++
		case "failed":
			failed++
		}
		if completions[id] > 1 {
			twice++
		}
	}
	jobsLeft := count("SELECT count(*) FROM jobs")
	documents := count("SELECT count(*) FROM documents")
	charged := count("SELECT coalesce(sum(quota_pages + credit_pages), 0) FROM usage WHERE refunded_at IS NULL")
	pages := count("SELECT coalesce(sum(page_count), 0) FROM documents WHERE status != 'failed'")
	var fivexx int
	for code, n := range answers {
		if code >= 500 && code != 503 {
			fivexx += n
		}
	}
	fmt.Printf("NODES rolling upgrade of three nodes from %s to this build under continuous uploads: %d restarts in %.1f s; answers %v "+
		"(0: connection failed); %d uploads acknowledged (%d distinct), %d documents: %d completed, %d failed, %d stuck, %d completed twice; "+
		"%d jobs left claimed by stopped nodes of this build, %d jobs left; pages charged %d for %d pages\n",
		from, restarts, upgraded.Seconds(), answers, len(acked), len(distinct), documents, completed, failed, stuck, twice,
		leftClaimed, jobsLeft, charged, pages)
	if fivexx != 0 {
		t.Errorf("%d answers were 5xx other than 503 busy, want none", fivexx)
	}
	if len(distinct) != len(acked) || documents != len(acked) || completed != len(acked) || failed != 0 || stuck != 0 || twice != 0 ||
		leftClaimed != 0 || jobsLeft != 0 || charged != pages {
		t.Errorf("rolling upgrade: want every acknowledged upload once, completed once, none failed or stuck, no job left claimed, quota exact")
	}
	for _, n := range nodes {
		n.stop(t)
	}
}
