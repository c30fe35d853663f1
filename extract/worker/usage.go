package worker

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"passbook/extract/source"
)

// usage is what a worker process has had of the machine: the CPU time its
// threads ran (those that ended included) and the time its threads spent
// runnable but waiting for a processor (those that still exist).
type usage struct {
	cpu, wait time.Duration
}

// clockTick is the unit of /proc/PID/stat's CPU times (USER_HZ, 100 on
// every Linux architecture Go builds for).
const clockTick = 10 * time.Millisecond

// readUsage reads pid's usage from /proc; ok is false where there is no
// /proc (the watchdog then counts wall-clock time alone).
func readUsage(pid int) (u usage, ok bool) {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return usage{}, false
	}
	// The command name, in parentheses, may hold spaces: fields count from
	// after it. utime and stime are the 14th and 15th fields.
	f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
	if len(f) < 13 {
		return usage{}, false
	}
	utime, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	stime, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return usage{}, false
	}
	u.cpu = time.Duration(utime+stime) * clockTick
	// Each thread's schedstat: nanoseconds run, nanoseconds waited on a
	// run queue, time slices.
	tasks, _ := filepath.Glob(dir + "/task/*/schedstat")
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if sf := bytes.Fields(b); len(sf) >= 2 {
			if ns, err := strconv.ParseInt(string(sf[1]), 10, 64); err == nil {
				u.wait += time.Duration(ns)
			}
		}
	}
	return u, true
}

// watchdog holds one conversion to its CPU budget, and its wall clock to
// BusyWall times that: it kills the worker, and says why, when the job has
// used its CPU time (source.ErrCPU), when it has neither run nor waited to
// run for most of its time past the budget (hung: source.ErrStalled), or
// when the wall clock ran out while it waited for a processor because the
// machine was busy (source.ErrBusy: the job is queued again, not failed).
// The budget counts CPU time, so a busy machine fails no good document
// (issue 41 point 10). Without /proc it counts wall-clock time alone.
type watchdog struct {
	pid   int
	start time.Time
	base  usage
	proc  bool // /proc can be read
	kill  func()

	mu     sync.Mutex
	budget time.Duration // CPU time
	factor int           // wall clock allowed, in budgets
	why    error         // set once the watchdog killed the worker
	timer  *time.Timer
	done   bool
}

// minCheck is the least time between two looks at a running job.
const minCheck = 50 * time.Millisecond

// newWatchdog starts watching the job the worker pid has just been given:
// by its CPU time when cpu is set, else (probes and renders, which take
// milliseconds) by the wall clock alone.
func newWatchdog(pid int, cpu bool, budget time.Duration, factor int, kill func()) *watchdog {
	d := &watchdog{pid: pid, start: time.Now(), budget: budget, factor: max(factor, 1), kill: kill}
	if cpu {
		d.base, d.proc = readUsage(pid)
	}
	d.timer = time.AfterFunc(budget, d.check)
	return d
}

// setBudget changes the CPU budget (the page count is known).
func (d *watchdog) setBudget(budget time.Duration) {
	d.mu.Lock()
	d.budget = budget
	d.mu.Unlock()
}

// stop ends the watch; it returns why the watchdog killed the worker, or nil.
func (d *watchdog) stop() error {
	d.timer.Stop()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.done = true
	return d.why
}

func (d *watchdog) check() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done || d.why != nil {
		return
	}
	elapsed := time.Since(d.start)
	wall := d.budget * time.Duration(d.factor)
	now, ok := readUsage(d.pid)
	if !d.proc || !ok {
		// Wall clock alone, as the budget.
		if elapsed < d.budget {
			d.timer.Reset(max(d.budget-elapsed, minCheck))
			return
		}
		d.why = source.ErrLimit
		d.kill()
		return
	}
	cpu, wait := now.cpu-d.base.cpu, max(now.wait-d.base.wait, 0)
	stalled := elapsed >= d.budget && cpu+wait < elapsed/2
	switch {
	case cpu >= d.budget:
		d.why = source.ErrCPU
	case stalled:
		d.why = source.ErrStalled
	case elapsed >= wall:
		d.why = source.ErrBusy
	default:
		// Look again when the budget could be used up (two threads may
		// spend it at twice the wall clock's pace), or the wall clock is.
		next := min((d.budget-cpu)/2, wall-elapsed)
		if elapsed < d.budget {
			next = min(next, d.budget-elapsed)
		}
		d.timer.Reset(max(next, minCheck))
		return
	}
	d.kill()
}
