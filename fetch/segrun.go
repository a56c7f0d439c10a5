package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urlget/urlget/schemes"
)

// segRun is one attempt of a segmented download: connections (workers)
// that each fetch a range of the resource and write it at its offset.
//
// Work is claimed as it goes. The missing ranges are split in as many
// pieces as there are connections; a connection that finishes its piece
// first continues, on the same body, with an unclaimed piece that starts
// where it stands (no request at all), else asks for an unclaimed one,
// else takes over the end of the range that would finish last — split so
// that both end at once, counting the wait for a new range's first byte,
// and only when that leaves it at least stealMin — so that a slow
// connection does not hold the end. A connection whose range was taken
// over stops where it now ends (its body closed: the http handler drops
// the connection, the ftp one aborts the transfer).
//
// A server that answers the first range request with the whole resource
// serves no ranges: the other connections give up and the first one,
// whose body runs on, takes every piece (one connection, as without
// segments). One that does so after it sent a range changed meanwhile,
// or stopped serving ranges: the attempt fails (retryable), and the next
// asks the resume rule. A connection that fails in a way marked retryable
// gives its range back, and asks the download's retry rule (retries: the
// same Client.Retries, RetryDelay and Retry-After as a whole download's)
// whether to go on: after the wait it says, with the next range (most
// often the one given back); with none left, the connection stops and
// the others go on. A failure of another kind (the disk, the source
// changed) ends the attempt.
type segRun struct {
	c    *Client
	loc  schemes.Locator // where ranges are asked for
	t    *target
	size int64
	rec  schemes.ResumeRecord // the remote, as the first response described it
	req  Request              // a range request: the record, Exact (URL and Offset are set per range)
	// warmed waits for one of the sessions readied for the ranges
	// (Client.warm) to be idle, so that a range takes it rather than
	// dialing; ctx ends the wait.
	warmed func(ctx context.Context)
	// retries is the download's retry rule, which a connection asks
	// before it asks again after a failure.
	retries *retries

	mu       sync.Mutex
	done     spans      // written
	queue    spans      // unclaimed
	active   []*segment // claimed and not finished
	rangesOK bool       // a server answered a range request with the range
	noRanges bool       // it answered one with the whole resource first
	err      error      // ends the attempt
	lastErr  error      // the last failure a connection stopped with
	setup    time.Duration
	setups   int
	used     int // connections that carried data
	requests int // range requests answered with their range
	stolen   int // ranges taken over from a slower connection
	dirty    bool

	moved  atomic.Int64 // bytes written by this attempt
	begin  time.Time
	cancel context.CancelFunc
}

// segment is a connection's current range [pos, end) (pos advances as
// bytes are written; end moves back when another takes the rest over).
type segment struct {
	pos, end int64
	asked    time.Time // when its request went out
	first    time.Time // its first byte, zero before
	got      int64     // bytes its body carried
	opened   bool      // asked for by open (not the first response, whose wait is not measured)
	// ahead: its body delivered bytes past its end, which moved back
	// meanwhile, so the body stands past pos and cannot go on into a
	// range that starts at pos.
	ahead bool
	stopper
}

// stopper ends a connection's request and body from any goroutine: what
// it was given to call (on), once, and what it is given after.
type stopper struct {
	mu     sync.Mutex
	halted bool
	fns    []func()
}

// stop calls what on was given, once.
func (s *stopper) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.halted {
		s.halted = true
		for _, f := range s.fns {
			f()
		}
	}
}

// on has stop call f; when stop came first, f is called now, and on says
// so (false).
func (s *stopper) on(f func()) bool {
	s.mu.Lock()
	if !s.halted {
		s.fns = append(s.fns, f)
		s.mu.Unlock()
		return true
	}
	s.mu.Unlock()
	f()
	return false
}

// run fetches every missing range with n connections, first's among them,
// reporting progress from the calling goroutine (as Download promises)
// and storing the ranges done in the record as they grow.
func (s *segRun) run(ctx context.Context, first *Response, n int, progress func(done, total int64)) error {
	ctx, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	s.begin = time.Now()
	missing := s.done.gaps(s.size)
	share := max((missing.total()+int64(n)-1)/int64(n), segmentMin)
	for _, g := range missing {
		for a := g.Start; a < g.End; a += share {
			s.queue = append(s.queue, span{a, min(a+share, g.End)})
		}
	}
	// Every connection's first range is claimed before any starts, so
	// that none finds the next one unclaimed and runs on into it.
	segs := make([]*segment, min(n, len(s.queue)))
	for i := range segs {
		segs[i] = s.claim(s.queue[0])
	}
	useFirst := len(segs) > 0 && segs[0].pos == first.Offset
	if useFirst {
		segs[0].on(func() { first.Close() })
	} else {
		first.Close() // nothing to fetch from where it starts
	}
	var wg sync.WaitGroup
	for i, sg := range segs {
		var body *Response
		if i == 0 && useFirst {
			body = first
		}
		wg.Add(1)
		go func() { defer wg.Done(); s.work(ctx, sg, body) }()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	tick := time.NewTicker(reportEvery)
	defer tick.Stop()
	report := func() {
		if progress != nil {
			s.mu.Lock()
			held := s.done.total()
			s.mu.Unlock()
			progress(held, s.size)
		}
	}
	report()
	for over := false; !over; {
		select {
		case <-tick.C:
			s.store()
		case <-finished:
			over = true
		}
		report()
	}
	s.store()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.err != nil:
		return s.err
	case s.done.total() == s.size:
		return nil
	case ctx.Err() != nil:
		return interrupted(s.loc, ctx.Err())
	case s.lastErr != nil:
		return s.lastErr
	}
	return &schemes.Error{Scheme: s.loc.Generic().Scheme, Phase: "transfer", Kind: schemes.KindProtocol, Retryable: true, URL: s.loc.Redacted(),
		Msg: fmt.Sprintf("%d bytes of %d left unfetched", s.size-s.done.total(), s.size)}
}

// store writes the ranges done to the record, when they grew. Their
// bytes were written before they were marked done, so a run killed at
// any moment leaves a record that claims no byte the file lacks.
func (s *segRun) store() {
	s.mu.Lock()
	if !s.dirty {
		s.mu.Unlock()
		return
	}
	done := slices.Clone(s.done)
	s.dirty = false
	s.mu.Unlock()
	writePartRecord(s.t, s.rec, done)
}

// claim takes the unclaimed range r (which is in the queue) for a new
// connection. Called with mu held.
func (s *segRun) claim(r span) *segment {
	i := slices.Index(s.queue, r)
	s.queue = slices.Delete(s.queue, i, i+1)
	sg := &segment{pos: r.Start, end: r.End, asked: time.Now()}
	s.active = append(s.active, sg)
	return sg
}

// work runs one connection: sg's range on body (nil: ask for it), then
// whatever next gives it, until nothing is left for it.
func (s *segRun) work(ctx context.Context, sg *segment, body *Response) {
	buf := make([]byte, segmentBuffer)
	carried := false
	failed := func(err error) bool {
		switch s.stopped(sg, err) {
		case failStop:
			return true
		case failRetry:
			return !s.retries.again(ctx, err, s.againNote)
		}
		return false
	}
	for sg != nil {
		if body == nil {
			var err error
			if body, err = s.open(ctx, sg); err != nil {
				if failed(err) {
					return
				}
				sg = s.next(sg, false)
				continue
			}
		}
		err := s.read(ctx, sg, body.Body, buf)
		if !carried && sg.got > 0 {
			carried = true
			s.mu.Lock()
			s.used++
			s.mu.Unlock()
		}
		if err != nil {
			sg.stop()
			body = nil
			if failed(err) {
				return
			}
			sg = s.next(sg, false)
			continue
		}
		next := s.next(sg, true)
		if next != sg {
			sg.stop()
			body = nil
		}
		sg = next
	}
}

// open asks for sg's range on a connection of its own.
func (s *segRun) open(ctx context.Context, sg *segment) (*Response, error) {
	sctx, cancel := context.WithCancel(ctx)
	if !sg.on(cancel) {
		return nil, context.Canceled
	}
	s.warmed(sctx)
	s.mu.Lock()
	if s.noRanges || s.err != nil {
		s.mu.Unlock()
		return nil, errNoRanges
	}
	start := sg.pos
	sg.opened, sg.asked = true, time.Now()
	s.mu.Unlock()
	if sctx.Err() != nil { // taken over while it waited
		return nil, sctx.Err()
	}
	req := s.req
	req.URL, req.Offset = s.loc, start
	req.ErrorPages = false // a range's error status is a failure, never part of the file
	r, err := s.c.once(sctx, req)
	if err != nil {
		return nil, err
	}
	if r.Body == nil || r.Offset != start {
		r.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.rangesOK {
			if !s.noRanges {
				s.c.trace().Info("one connection, not segments: the server answered a range request with the whole resource")
			}
			s.noRanges = true
			return nil, errNoRanges
		}
		return nil, &schemes.Error{Scheme: s.loc.Generic().Scheme, Phase: "resume", Kind: schemes.KindProtocol, Retryable: true, URL: s.loc.Redacted(),
			Msg: fmt.Sprintf("asked for byte %d on, the server sent from byte %d: the resource changed, or the server stopped sending ranges", start, r.Offset)}
	}
	if ok, why := sameSource(s.rec, r.Response); !ok {
		r.Close()
		return nil, &schemes.Error{Scheme: s.loc.Generic().Scheme, Phase: "resume", Kind: schemes.KindProtocol, Retryable: true, URL: s.loc.Redacted(),
			Msg: "the resource changed during the download: " + why}
	}
	s.mu.Lock()
	s.rangesOK = true
	s.requests++
	s.mu.Unlock()
	if !sg.on(func() { r.Close() }) { // stopped while it was asked for
		return nil, context.Canceled
	}
	return r, nil
}

// read copies body into sg's range until the range ends: until its end,
// which may move back meanwhile, or, for the range that ends the
// resource, until the body ends, so that the handler sees the end and
// checks it (the ftp handler reads its 226 and keeps the session).
func (s *segRun) read(ctx context.Context, sg *segment, body io.Reader, buf []byte) error {
	for {
		s.mu.Lock()
		pos, end := sg.pos, sg.end
		s.mu.Unlock()
		last := end == s.size
		if pos >= end && !last {
			return nil
		}
		want := len(buf)
		if !last {
			want = int(min(int64(want), end-pos))
		}
		n, err := body.Read(buf[:want])
		if n > 0 {
			if werr := s.write(ctx, sg, buf[:n]); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			s.mu.Lock()
			short := sg.pos < sg.end
			pos, end = sg.pos, sg.end
			s.mu.Unlock()
			if short {
				return &schemes.Error{Scheme: s.loc.Generic().Scheme, Phase: "verify", Kind: schemes.KindProtocol, Retryable: true,
					URL: s.loc.Redacted(), Msg: fmt.Sprintf("transfer truncated: the range ended at byte %d, before %d", pos, end)}
			}
			return nil
		}
		if err != nil {
			return interrupted(s.loc, err)
		}
	}
}

// write puts p, which the body carried from sg.pos on, into the file: as
// much of it as sg's range still holds (the rest is another connection's
// now), and marks it done once written.
func (s *segRun) write(ctx context.Context, sg *segment, p []byte) error {
	s.mu.Lock()
	pos, end := sg.pos, sg.end
	if sg.first.IsZero() {
		sg.first = time.Now()
		if sg.opened {
			s.setup += sg.first.Sub(sg.asked)
			s.setups++
		}
	}
	sg.got += int64(len(p))
	s.mu.Unlock()
	w := max(min(int64(len(p)), end-pos), 0)
	if w < int64(len(p)) && end == s.size {
		return &schemes.Error{Scheme: s.loc.Generic().Scheme, Phase: "verify", Kind: schemes.KindProtocol, URL: s.loc.Redacted(),
			Msg: fmt.Sprintf("got more bytes than the %d the server announced", s.size)}
	}
	if w > 0 {
		if _, err := s.t.f.WriteAt(p[:w], pos); err != nil {
			return &localFailure{localError(s.loc, "write", err)}
		}
	}
	s.mu.Lock()
	sg.pos = pos + w
	sg.ahead = sg.ahead || w < int64(len(p))
	s.done.add(pos, pos+w)
	s.dirty = true
	s.mu.Unlock()
	s.moved.Add(w)
	return s.throttle(ctx)
}

// localFailure marks a failure of the local file, which ends the attempt
// whatever its kind.
type localFailure struct{ error }

func (l *localFailure) Unwrap() error { return l.error }

// throttle applies LimitRate to the bytes of every connection together.
func (s *segRun) throttle(ctx context.Context) error {
	rate := s.c.LimitRate
	if rate <= 0 {
		return nil
	}
	due := s.begin.Add(time.Duration(float64(s.moved.Load()) / float64(rate) * float64(time.Second)))
	if wait := time.Until(due); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// What a connection's failure means for it (stopped).
const (
	failNone  = iota // its range had ended anyway: it goes on
	failRetry        // retryable: its range given back, it may go on
	failStop         // the attempt fails, or the server sends no ranges
)

// againNote says, in a retry's note, what is tried again.
func (s *segRun) againNote() string { return "; one connection asks for a range again" }

// stopped settles a connection's failure err on sg: nothing when its
// range had ended anyway (another took it over and stopped it);
// otherwise the rest of the range goes back to the unclaimed ones, and a
// failure not marked retryable (a local one among them) ends the attempt.
func (s *segRun) stopped(sg *segment, err error) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sg.pos >= sg.end {
		return failNone
	}
	s.active = slices.DeleteFunc(s.active, func(x *segment) bool { return x == sg })
	s.requeue(span{sg.pos, sg.end})
	sg.pos = sg.end
	var lf *localFailure
	switch {
	case errors.Is(err, errNoRanges):
		return failStop
	case errors.As(err, &lf):
		s.fail(lf.error)
		return failStop
	case schemes.IsRetryable(err) && s.err == nil:
		s.lastErr = err
		return failRetry
	}
	s.fail(err)
	return failStop
}

// fail ends the attempt with err (the first failure wins). Called with
// mu held.
func (s *segRun) fail(err error) {
	if s.err == nil {
		s.err = err
		s.cancel()
	}
}

// requeue gives an unfetched range back. Called with mu held.
func (s *segRun) requeue(r span) {
	if r.Start >= r.End {
		return
	}
	i, _ := slices.BinarySearchFunc(s.queue, r.Start, func(x span, a int64) int {
		return int(min(max(x.Start-a, -1), 1))
	})
	s.queue = slices.Insert(s.queue, i, r)
}

// next is what the connection that ran sg does now: sg itself, its end
// moved on, when the body it holds (open says it does) can go on into an
// unclaimed range that starts where it stands, or, without ranges, into
// all of them; else a new range to ask for (unclaimed, or taken over from
// the connection that would finish last); nil for nothing.
func (s *segRun) next(sg *segment, open bool) *segment {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil
	}
	if open && !sg.ahead && sg.pos < s.size {
		if s.noRanges && len(s.queue) > 0 && s.queue[0].Start >= sg.pos {
			// Without ranges the body runs on to the end; bytes done
			// meanwhile are written again, alike.
			sg.end = s.queue[len(s.queue)-1].End
			s.queue = nil
			return sg
		}
		if i := slices.IndexFunc(s.queue, func(r span) bool { return r.Start == sg.pos }); i >= 0 {
			sg.end = s.queue[i].End
			s.queue = slices.Delete(s.queue, i, i+1)
			return sg
		}
		for _, v := range s.active {
			if v != sg && v.pos == sg.pos && v.got == 0 && (!s.rangesOK || s.stalled(v, time.Now())) {
				// The next range's connection has not begun, and either
				// it is stalled or no server has sent a range yet (if it
				// never does, this body is the one that goes on): this
				// body is already there.
				sg.end, v.end = v.end, v.pos
				v.stop()
				return sg
			}
		}
	}
	s.active = slices.DeleteFunc(s.active, func(x *segment) bool { return x == sg })
	if s.noRanges {
		return nil
	}
	if len(s.queue) > 0 {
		return s.claim(s.queue[0])
	}
	return s.steal(sg)
}

// steal takes over the end of the range that would finish last, for
// thief, which finished its own: the split makes both end at once, by
// their rates and the wait for a new range's first byte (setup), and is
// made only when it leaves the thief at least stealMin. A connection that
// is stalled (no first byte for long: stalled) has all of its range
// taken. Called with mu held.
func (s *segRun) steal(thief *segment) *segment {
	now := time.Now()
	setup := s.setupTime()
	var victim *segment
	var eta, vrate float64
	for _, v := range s.active {
		rem := v.end - v.pos
		if v == thief || rem < 2*stealMin {
			continue
		}
		e, r := math.Inf(1), 0.0
		if v.got > 0 {
			r = float64(v.got) / max(now.Sub(v.first).Seconds(), 0.01)
			e = float64(rem) / r
		} else if !s.stalled(v, now) {
			continue // give it time for its first byte
		}
		if victim == nil || e > eta {
			victim, eta, vrate = v, e, r
		}
	}
	if victim == nil {
		return nil
	}
	rem := float64(victim.end - victim.pos)
	take := rem
	if !math.IsInf(eta, 1) {
		trate := vrate
		if thief != nil && thief.got > 0 {
			trate = float64(thief.got) / max(now.Sub(thief.first).Seconds(), 0.01)
		}
		// Both end at once: (rem-x)/vrate = setup + x/trate.
		take = min((eta-setup.Seconds())/(1/vrate+1/trate), rem)
	}
	if take < stealMin {
		return nil
	}
	cut := victim.end - int64(take)
	sg := &segment{pos: cut, end: victim.end, asked: now}
	victim.end = cut
	if victim.end <= victim.pos {
		victim.stop()
	}
	s.active = append(s.active, sg)
	s.stolen++
	return sg
}

// setupTime is the usual wait for a range's first byte: the mean of those
// measured, setupGuess before any. Called with mu held.
func (s *segRun) setupTime() time.Duration {
	if s.setups == 0 {
		return setupGuess
	}
	return s.setup / time.Duration(s.setups)
}

// stalled says whether v, which has had no byte yet, has waited for its
// first one for three times the usual wait, and stallAfter at least; not
// before a range's wait has been measured (a server slow to log in is
// not stalled, and another connection would wait as long). Called with
// mu held.
func (s *segRun) stalled(v *segment, now time.Time) bool {
	return v.got == 0 && s.setups > 0 && now.Sub(v.asked) >= max(3*s.setupTime(), stallAfter)
}
