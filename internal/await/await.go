// Package await is how tests wait for something another goroutine does,
// without ordering events by sleeping: Until polls a condition that has no
// event to wait on (a count kept by the code under test, a file growing, a
// goroutine exiting), and Parked waits until a goroutine is blocked in a
// given function (a Read on a silent connection, a wait for a slot), which
// is the moment a test that then closes, cancels or asserts "not yet" needs.
// Both are bounded (Timeout) and fail the test when the bound passes. Poll
// and Within are Until without the failure, and IsParked is Parked's
// question asked once, for goroutines other than the test's (a fake
// server that waits for its client) and for conditions made of several.
//
// A test that sleeps and then asserts is right only when the scheduler
// happens to run the other goroutines in time; internal/rules fails on a
// time.Sleep in test code (a _test.go file, or a file that imports
// "testing") outside its allow-list, and these are what to use instead
// when no channel or hook gives the event.
//
// It is imported by tests only; it is a plain package (not a _test.go file)
// so that every package's tests can share it, and internal, so that no
// program outside this module comes to depend on test helpers.
package await

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Timeout bounds every wait: far longer than anything the tests wait for
// takes on a loaded machine, so that reaching it means the event is not
// coming.
const Timeout = 10 * time.Second

// every is how often a condition is looked at again.
const every = 2 * time.Millisecond

// Until returns once cond is true, looking at it every few milliseconds;
// after Timeout it fails the test (t.Fatalf, naming what), so it must be
// called from the test's goroutine.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !Poll(cond) {
		t.Fatalf("%s: not within %v", what, Timeout)
	}
}

// Poll reports whether cond became true within Timeout, looking at it
// every few milliseconds: Until for a goroutine other than the test's
// (which may not call t.Fatal), to report with t.Error, or for a wait
// whose end is not itself a failure (the assertion after it judges).
func Poll(cond func() bool) bool {
	return Within(Timeout, cond)
}

// Within is Poll bounded by limit instead of Timeout, for a wait that
// already has a bound of its own: one longer than Timeout for an event
// known to come late on a loaded machine (a page load in a browser, a
// transfer through a throttled proxy), which Timeout would turn into a
// failure that is not one.
func Within(limit time.Duration, cond func() bool) bool {
	if cond() {
		return true
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	deadline := time.Now().Add(limit)
	for range tick.C {
		runtime.Gosched()
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
	return false
}

// Parked returns once a goroutine has a frame whose function name holds
// fn ("package.Func(" or "package.(*Type).Method(" is precise; a name
// only a test's own function has keeps other tests' goroutines out) and
// is parked: waiting on a channel, a select, a lock, a condition or the
// network poller, as runtime.Stack shows it, not running or runnable.
// After Timeout it fails the test (t.Fatalf) with every goroutine's stack.
func Parked(t testing.TB, fn string) {
	t.Helper()
	if !Poll(func() bool { return parked(stacks(), "", fn) }) {
		t.Fatalf("no goroutine parked in %s within %v:\n%s", fn, Timeout, stacks())
	}
}

// IsParked reports whether a goroutine is parked now (as Parked judges
// it) with a frame naming fn, and, when state is not "", in that state as
// runtime.Stack shows it ("chan send", "chan receive", "select", "IO
// wait"): the state tells a send that waits from a receive or a select in
// the same function (the runtime's own frames are not in the dump). It is
// a condition for Poll, alone or with others ("parked here, or gone past
// the bound already"), and fails no test, so a fake server's goroutine
// may ask it.
func IsParked(state, fn string) bool {
	return parked(stacks(), state, fn)
}

// stacks is every goroutine's stack, as runtime.Stack writes them.
func stacks() []byte {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// parked reports whether one of the goroutines in dump (runtime.Stack's
// text: "goroutine 7 [state, 2 minutes]:" and its frames, a blank line
// between goroutines) is in a waiting state (state, when not "") with a
// frame calling fn.
func parked(dump []byte, state, fn string) bool {
	for _, g := range bytes.Split(dump, []byte("\n\n")) {
		head, frames, _ := strings.Cut(string(g), "\n")
		_, st, ok := strings.Cut(head, " [")
		if !ok {
			continue
		}
		st, _, _ = strings.Cut(st, "]")
		st, _, _ = strings.Cut(st, ",")
		switch st {
		case "running", "runnable", "syscall", "copystack", "preempted", "dead", "idle":
			continue
		}
		if state != "" && st != state {
			continue
		}
		for _, line := range strings.Split(frames, "\n") {
			if !strings.HasPrefix(line, "\t") && strings.Contains(line, fn) {
				return true
			}
		}
	}
	return false
}
