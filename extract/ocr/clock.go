package ocr

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// A page's CPU budget.
//
// A page is read once whole, and then again where that pays: with its
// script's or language's model, turned, in block mode, figure by figure.
// Each of those passes costs about what the first did, and on a page that
// reads slowly (a large noisy scan finds words in its speckle) they had
// added up to minutes: a two-page scan ran for over five. The passes after
// the first are made only while the page's CPU, with one more pass of the
// first's cost, stays within pageCPU; a page read short of them says so.

// pageCPU is the CPU a page's reading may take, passes after the first
// included; the bound is a minute a page, and a pass past this
// would go over it.
const pageCPU = 40 * time.Second

// pageClock counts the CPU one page's reading has taken.
type pageClock struct {
	budget time.Duration
	spent  time.Duration
	first  time.Duration // the first pass's
	// skipped is set once a pass was left out for the budget.
	skipped bool
}

// run runs pass on this goroutine's thread, locked to it so that the
// thread's CPU clock counts the pass (Tesseract runs on the caller's
// thread, OMP_THREAD_LIMIT=1), and adds its CPU to the page's.
func (c *pageClock) run(pass func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := threadCPU()
	err := pass()
	d := threadCPU() - t0
	if c.first == 0 {
		c.first = d
	}
	c.spent += d
	return err
}

// affords reports whether one more pass of the first's cost fits the
// page's budget, noting it when it does not.
func (c *pageClock) affords() bool {
	if c.budget > 0 && c.spent+c.first > c.budget {
		c.skipped = true
		return false
	}
	return true
}

// threadCPU is the CPU time the calling thread has used.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
