package main

import (
	"os"
	"runtime"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// oneProcessorPolicy says processors may change GOMAXPROCS: set by main,
// for the process it is; a test calling run leaves it false.
var oneProcessorPolicy bool

// processors sets GOMAXPROCS for each URL of a sequential run (one URL
// after another, each over one connection): 1 while the URL's scheme
// claims schemes.OneProcessor, the setting the run started with
// otherwise. Such a scheme's exchanges pass between its transport's
// goroutines (net/http's Transport reads and writes each connection on
// goroutines of its own), and with two processors every pass wakes an
// idle thread on the other CPU: on loopback, 200 small files one after
// another into a tmpfs took 60 ms with two processors and 47 ms with one
// (1,774 context switches, then 328), curl 20 ms. A scheme whose handler
// waits on its connection from the caller's goroutine keeps the
// processors: an LDAP search was slower on one (bench/ldap.sh).
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
// processors.
type processors struct {
	on          bool // the policy applies to this run
	before, now int
}

// processors starts the policy for a sequential run.
func (o *options) processors() *processors {
	p := &processors{before: runtime.GOMAXPROCS(0)}
	p.now = p.before
	p.on = oneProcessorPolicy && !o.parallel && o.segments <= 1 && os.Getenv("GOMAXPROCS") == "" && p.before > 1
	return p
}

// next sets the processors for loc, the URL about to be fetched (nil
// for one that does not parse here, such as a host name whose scheme is
// guessed: it keeps the run's setting).
func (p *processors) next(c *fetch.Client, loc schemes.Locator) {
	if !p.on {
		return
	}
	want := p.before
	if loc != nil && c.Caps(loc).Has(schemes.OneProcessor) {
		want = 1
	}
	if want != p.now {
		runtime.GOMAXPROCS(want)
		p.now = want
	}
}

// restore gives back the setting the run started with.
func (p *processors) restore() {
	if p.now != p.before {
		runtime.GOMAXPROCS(p.before)
		p.now = p.before
	}
}
