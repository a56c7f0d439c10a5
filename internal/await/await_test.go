package await

import (
	"sync/atomic"
	"testing"
)

// blockedOn is a function only this test's goroutine is in.
func blockedOn(c chan struct{}) { <-c }

// TestParked: a goroutine blocked on a channel is seen parked in its
// function; a name no goroutine is in is not, nor a running one.
func TestParked(t *testing.T) {
	c := make(chan struct{})
	defer close(c)
	go blockedOn(c)
	Parked(t, "await.blockedOn(")
	if parked(stacks(), "await.noSuchFunction(") {
		t.Error("a function no goroutine is in was seen parked")
	}
	dump := []byte("goroutine 1 [running]:\nx.f(...)\n\t/x.go:1\n\ngoroutine 2 [chan receive, 3 minutes]:\nx.g(0x1)\n\t/x.go:2 +0x1")
	for fn, want := range map[string]bool{"x.f(": false, "x.g(": true, "x.go": false} {
		if got := parked(dump, fn); got != want {
			t.Errorf("parked(%q) = %v, want %v", fn, got, want)
		}
	}
}

// TestUntil: Until returns once another goroutine makes the condition
// true.
func TestUntil(t *testing.T) {
	var n atomic.Int32
	go func() {
		for range 3 {
			n.Add(1)
		}
	}()
	Until(t, "three", func() bool { return n.Load() == 3 })
}
