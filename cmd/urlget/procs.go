package main

import (
	"os"
	"runtime"
)

// oneProcessorPolicy says oneProcessor may change GOMAXPROCS: set by main,
// for the process it is; a test calling run leaves it false.
var oneProcessorPolicy bool

// oneProcessor runs a sequential retrieval (one URL after another, each
// over one connection) on one processor: GOMAXPROCS 1, as curl runs on one
// thread. A sequential retrieval has nothing to run in parallel: one
// goroutine waits on one connection at a time. What a second processor
// costs it is the handoff: net/http's Transport reads and writes each
// connection on goroutines of its own (persistConn's readLoop and
// writeLoop), so every request passes from the caller to them and back,
// and with two processors each pass wakes an idle thread on the other
// CPU (a futex wake, then that thread spinning and sleeping again). On
// loopback, 200 small files one after another into a tmpfs took 60 ms
// with two processors and 47 ms with one (1,774 context switches, then
// 328), curl 20 ms; the Transport's handoffs were most of the difference
// between net/http and a client reading on the caller's goroutine
// (37 ms against 19 ms for the same 200 files).
//
// It applies only where nothing runs in parallel: not with -Z (parallel
// transfers) nor --segments (one file over several connections), which
// run one goroutine a connection and want the processors; and not when
// the user set GOMAXPROCS, which the runtime already obeys. (A copy made
// in segments that -C - continues without --segments is found to be one
// only once its download begins, and runs on the one processor: its
// connections wait on the network; one core decrypts TLS at gigabytes a
// second.) And only in the command itself (oneProcessorPolicy), not
// where run is called in a test process whose other tests want their
// processors. It returns the function that gives back the setting before.
func (o *options) oneProcessor() (restore func()) {
	if !oneProcessorPolicy || o.parallel || o.segments > 1 || os.Getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) == 1 {
		return func() {}
	}
	before := runtime.GOMAXPROCS(1)
	return func() { runtime.GOMAXPROCS(before) }
}
