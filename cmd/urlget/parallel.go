package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// defaultParallelMax is -Z's number of transfers at once when
// --parallel-max is not given. curl's is 50; ours is the pool's idle
// sessions per server (transport.DefaultMaxIdlePerKey, also the http
// handler's idle connections per host), as FTP servers commonly refuse
// more sessions than that from one address (vsftpd's max_per_ip,
// pure-ftpd's -c). A larger --parallel-max keeps as many (keepIdle).
const defaultParallelMax = transport.DefaultMaxIdlePerKey

// keepIdle has c keep n idle connections per server, for n transfers at
// once (-Z, a mirror's -P), so that every connection a transfer gives
// back — an FTP login, an HTTP keep-alive connection — is kept for the
// next URL rather than closed and made again. A smaller n leaves the
// Client's default (16), which already keeps every one.
func keepIdle(c *fetch.Client, n int) {
	if n > transport.DefaultMaxIdlePerKey {
		c.MaxIdleConnsPerHost = n
	}
}

// maxParallel bounds --parallel-max: each transfer holds a connection or
// two (an FTP data connection), and descriptors are finite.
const maxParallel = 1024

// reorderWindow is how many transfers may be started or finished but not
// yet written out, for n at once: a slow URL holds at most this many
// later ones waiting for their turn (their reports and the first
// spoolMemory of their stdout in memory, the rest on disk), so memory is
// bounded whatever the number of URLs. A transfer starts only when the
// window has room: a very slow URL then stalls the run after the window's
// worth of faster ones, rather than letting their outputs pile up.
func reorderWindow(n int) int { return 4 * n }

// errFailedEarly is the cause of the run's cancellation once a transfer
// failed under --fail-early: the transfers still running are aborted.
var errFailedEarly = errors.New("another URL failed (--fail-early)")

// addParallelFlags defines -Z, --parallel-max and --fail-early, the flags
// of a retrieval of several URLs (not of `urlget mirror`, whose
// --parallel is its own).
func addParallelFlags(fs *pflag.FlagSet, o *options) {
	fs.BoolVarP(&o.parallel, "parallel", "Z", false, "retrieve the URLs at once, up to --parallel-max at a time, over shared connections; outputs, --json and -w stay in the URLs' order")
	fs.IntVar(&o.parallelMax, "parallel-max", defaultParallelMax, "with -Z, at most `N` transfers at once")
	fs.BoolVar(&o.failEarly, "fail-early", false, "stop at the first URL that fails (with -Z, abort the transfers under way) and exit with its status")
}

// checkParallelMax refuses an --parallel-max outside 1..maxParallel.
func checkParallelMax(fs *pflag.FlagSet, n int) error {
	if fs.Lookup("parallel-max") == nil || (n >= 1 && n <= maxParallel) {
		return nil
	}
	return fmt.Errorf("--parallel-max %d: want 1 to %d transfers at once", n, maxParallel)
}

// slot is one URL of a parallel run, from its start until it is written
// out in its turn.
type slot struct {
	i     int
	raw   string
	where string // "-i FILE, line N: ", "" for a URL of the command line
	out   *spool // its stdout: held until the URLs before it are written
	err   error
	done  chan struct{} // closed when the transfer has ended
	// first says that this failure stopped the run (--fail-early).
	first bool
}

// retrieveParallel is -Z: up to o.parallelMax URLs at once through the
// one Client (its pool: FTP sessions and HTTP keep-alive connections go
// from one URL to the next), every output — stdout bodies, --json, -w,
// error messages — written in the URLs' order whatever order they finish
// in. Files are written as they arrive; what goes to stdout is held (in
// memory up to spoolMemory, then in an unnamed temporary file) until the
// URLs before it are written out, then streamed. The exit status is the
// last failure's in the URLs' order, as without -Z (curl's is that of the
// failure that finished last, which depends on timing); with --fail-early
// it is the first failure's to finish, and the transfers still running
// are aborted, as curl does.
func (o *options) retrieveParallel(ctx context.Context, c *fetch.Client, stdin io.Reader, stdout io.Writer) int {
	n := o.parallelMax
	keepIdle(c, n)
	src, err := o.parallelURLs(c, stdin)
	if err != nil {
		o.con.say(err.Error())
		return 2
	}
	defer src.close()
	if o.con.draw {
		o.set = newParallelSet(src.known())
		defer o.con.show(o.set)()
	}
	run, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	queue := make(chan *slot, reorderWindow(n))
	go o.startAll(run, c, n, src, queue, abort)
	status, early := 0, 0
	for s := range queue {
		// Every URL before s is written out: s's stdout streams from now.
		werr := s.out.release(stdout)
		<-s.done
		if s.err == nil {
			s.err = werr // stdout could not take the held output
		}
		o.set.finished(s.err != nil)
		if s.err == nil {
			continue
		}
		code := o.exitFor(s.err)
		if s.first {
			early = code
		}
		if !o.silent || o.showError {
			o.con.say(s.where + o.parallelMessage(ctx, run, s))
		}
		status = code
	}
	if in := interruptedBy(ctx); in != nil {
		return in.exitCode()
	}
	if err := src.end(len(o.outputs)); err != nil && run.Err() == nil {
		o.con.say(err.Error()) // as parseFlags says it without -Z
		status = 2
	}
	if early != 0 {
		return early
	}
	return status
}

// startAll starts each URL in turn, at most n at once and within the
// reorder window (queue's capacity), and queues it for writing out in
// order. It stops starting when run is canceled (Ctrl-C, --fail-early).
// A failure under --fail-early cancels run, the first one marked.
func (o *options) startAll(run context.Context, c *fetch.Client, n int, src *parallelSource, queue chan<- *slot, abort context.CancelCauseFunc) {
	defer close(queue)
	busy := make(chan struct{}, n)
	firstDone := make(chan struct{}, 1)
	firstDone <- struct{}{} // taken by the first failure under --fail-early
	for i := 0; ; i++ {
		select {
		case busy <- struct{}{}:
		case <-run.Done():
			return
		}
		raw, where, ok := src.next()
		if !ok || run.Err() != nil {
			o.set.listed(src.known()) // the list's length is now known
			return
		}
		s := &slot{i: i, raw: raw, where: where, out: &spool{}, done: make(chan struct{})}
		next := src.ahead(c)
		queue <- s // waits while the window is full; the writer always drains it
		go func() {
			defer func() { <-busy }()
			defer close(s.done)
			s.err = o.retrieveOne(run, c, s.i, s.raw, nil, next, s.out)
			if s.err != nil && o.failEarly && run.Err() == nil {
				select {
				case <-firstDone:
					s.first = true
					abort(errFailedEarly)
				default:
				}
			}
		}()
	}
}

// parallelMessage is what a failed URL of a parallel run says on stderr:
// its error, which names its URL (the URL as given when the error names
// none); a transfer cut short by Ctrl-C or aborted after another failed
// (--fail-early) says so instead.
func (o *options) parallelMessage(ctx, run context.Context, s *slot) string {
	if interruptedBy(ctx) != nil {
		return interruptedMessage(s.err)
	}
	name := schemes.RedactString(s.raw)
	var se *schemes.Error
	if errors.As(s.err, &se) && se.URL != "" {
		name = se.URL
	}
	if !s.first && errors.Is(context.Cause(run), errFailedEarly) && schemes.KindOf(s.err) == schemes.KindCanceled {
		return name + ": aborted: " + errFailedEarly.Error()
	}
	msg := redactedText(s.err)
	if se == nil || se.URL == "" {
		msg = name + ": " + msg
	}
	return msg
}

// parallelSource is the URLs of a parallel run in turn: the command
// line's, then the -i list's, read as the run goes when streamsList says
// so (else parseFlags has read them into o.urls), each given the scheme
// its host name suggests when it has none.
type parallelSource struct {
	o     *options
	list  *urlList // nil when there is no list to read
	guess func(raw string) string
	given int  // URLs given so far
	ended bool // the list was read to its end (or failed)
	// peeked is the list's next URL, read ahead by ahead, not yet given.
	peeked *listedURL
}

// listedURL is a URL of the list and where it was.
type listedURL struct{ raw, where string }

// parallelURLs opens the run's URLs; an -i file that cannot be opened is
// an error, as it is without -Z.
func (o *options) parallelURLs(c *fetch.Client, stdin io.Reader) (*parallelSource, error) {
	src := &parallelSource{o: o, guess: schemeGuesser(c), ended: true}
	if o.streamsList() {
		l, err := openURLList(o.inputFile, stdin)
		if err != nil {
			return nil, err
		}
		src.list, src.ended = l, false
	}
	return src, nil
}

// next is the next URL and where it was, to start its messages with
// (o.where's "-i FILE, line N: "); ok is false after the last.
func (s *parallelSource) next() (raw, where string, ok bool) {
	defer func() {
		if ok {
			s.given++
		}
	}()
	if s.given < len(s.o.urls) {
		return s.o.urls[s.given], s.o.where(s.given), true
	}
	if s.list == nil {
		return "", "", false
	}
	if p := s.peeked; p != nil {
		s.peeked = nil
		return p.raw, p.where, true
	}
	return s.read()
}

// read reads the list's next URL.
func (s *parallelSource) read() (raw, where string, ok bool) {
	raw, where, ok = s.list.next()
	if !ok {
		s.ended = true
		return "", "", false
	}
	return s.guess(raw), where + ": ", true
}

// ahead is the URL after the last one given, as the look-ahead of a
// request shared with the run's other connections (fetch.Request's
// NextShared: an FTP session readies its next passive port, whichever
// URL then takes the session), when it can be known without waiting: one
// of the command line's, or the next line of a list in a regular file
// (read ahead, then given by next); never a line of stdin or a pipe still
// being written, which would hold up the URL being started. nil
// otherwise, or when it does not parse, or its scheme does not pipeline.
func (s *parallelSource) ahead(c *fetch.Client) []schemes.Locator {
	var raw string
	switch {
	case s.given < len(s.o.urls):
		raw = s.o.urls[s.given]
	case s.peeked != nil:
		raw = s.peeked.raw
	case s.list != nil && s.list.regular && !s.ended:
		r, where, ok := s.read()
		if !ok {
			return nil
		}
		s.peeked, raw = &listedURL{r, where}, r
	default:
		return nil
	}
	loc, err := c.Parse(raw)
	if err != nil || !c.Caps(loc).Has(schemes.Pipelines) {
		return nil
	}
	return []schemes.Locator{loc}
}

// known is the number of URLs when it is known (the list read to its
// end, or none streamed), else -1. Without a list it is the command
// line's from the start: the progress line said "0/0 files" until the
// last URL had started.
func (s *parallelSource) known() int {
	switch {
	case s.list == nil:
		return len(s.o.urls)
	case !s.ended:
		return -1
	}
	return s.given
}

// end checks, once the list has been read, what parseFlags checks before
// the run without -Z: the list was readable, there was a URL, and no more
// -o files than URLs (outputs).
func (s *parallelSource) end(outputs int) error {
	if s.list == nil {
		return nil
	}
	if err := s.list.err(); err != nil {
		return err
	}
	switch {
	case s.given == 0:
		return errNoURL
	case outputs > s.given:
		return fmt.Errorf("%d -o files for %d URLs", outputs, s.given)
	}
	return nil
}

func (s *parallelSource) close() {
	if s.list != nil {
		s.list.close()
	}
}
