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
	if parked(stacks(), "", "await.noSuchFunction(") {
		t.Error("a function no goroutine is in was seen parked")
	}
	dump := []byte("goroutine 1 [running]:\nx.f(...)\n\t/x.go:1\n\ngoroutine 2 [chan receive, 3 minutes]:\nx.g(0x1)\n\t/x.go:2 +0x1")
	for fn, want := range map[string]bool{"x.f(": false, "x.g(": true, "x.go": false} {
		if got := parked(dump, "", fn); got != want {
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

// blockedSending is a function only TestIsParked's goroutine is in.
func blockedSending(c chan struct{}) { c <- struct{}{} }

// TestIsParked: a goroutine blocked sending is seen parked in its
// function, in state "chan send" or any, not in another state; in a dump
// the state is the goroutine's own.
func TestIsParked(t *testing.T) {
	c := make(chan struct{})
	defer func() { <-c }()
	go blockedSending(c)
	Parked(t, "await.blockedSending(")
	if !IsParked("chan send", "await.blockedSending(") || !IsParked("", "await.blockedSending(") {
		t.Error("a goroutine blocked in a send is not seen parked in its function in state chan send")
	}
	if IsParked("chan receive", "await.blockedSending(") {
		t.Error("a goroutine blocked in a send is seen parked in a receive")
	}
	dump := []byte("goroutine 1 [chan send]:\nx.f(...)\n\t/x.go:1\n\ngoroutine 2 [select, 2 minutes]:\nx.g(0x1)\n\t/x.go:2 +0x1")
	for _, tt := range []struct {
		state, fn string
		want      bool
	}{{"chan send", "x.f(", true}, {"select", "x.f(", false}, {"select", "x.g(", true}, {"chan send", "x.g(", false}} {
		if got := parked(dump, tt.state, tt.fn); got != tt.want {
			t.Errorf("parked(%q, %q) = %v, want %v", tt.state, tt.fn, got, tt.want)
		}
	}
}

// TestWithin: Within returns true once the condition holds, and false
// when it does not hold within the bound.
func TestWithin(t *testing.T) {
	var n atomic.Int32
	go n.Store(1)
	if !Within(Timeout, func() bool { return n.Load() == 1 }) {
		t.Error("a condition made true by another goroutine was not seen")
	}
	if Within(10*every, func() bool { return false }) {
		t.Error("a condition never true was reported true")
	}
}
