package fetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// MaxSegments is the most connections DownloadOptions.Segments uses; more
// is taken as this many.
const MaxSegments = 16

const (
	// segmentMin is the least worth a segment of its own: a file shorter
	// than two of them (8 MiB) comes over one connection, and a file is
	// split in no more segments than it holds.
	segmentMin = 4 << 20
	// stealMin is the least a connection that ran out of work takes over
	// from the range of a slower one: less is done sooner where it is.
	stealMin = 1 << 20
	// segmentBuffer is what a segment's connection reads at once.
	segmentBuffer = 256 << 10
	// setupGuess is the wait for a segment's first byte assumed until
	// one has been measured.
	setupGuess = 200 * time.Millisecond
	// stallAfter is the least wait for a first byte after which a
	// connection counts as stalled (its range is taken over whole).
	stallAfter = 500 * time.Millisecond
)

// resumeAt is where the next request starts: after the bytes held, or,
// for a segmented copy, at its first missing byte.
func (t *target) resumeAt() int64 {
	if t.segs == 0 {
		return t.held
	}
	if len(t.spans) > 0 && t.spans[0].Start == 0 {
		return t.spans[0].End
	}
	return 0
}

// adoptSpans takes the ranges of rec, the record of NAME.part (length
// bytes long), as what the copy holds; ranges that do not fit the
// resource or the file are no ranges (everything is fetched again).
func (t *target) adoptSpans(rec *partRecord, length int64) {
	t.segs = rec.Segments
	t.spans = spans{}
	if rec.Size >= 0 && rec.Done.check(min(rec.Size, length)) == nil {
		t.spans = slices.Clone(rec.Done)
	}
	t.held = t.spans.total()
}

// unsegment turns a segmented copy into one written from its start: only
// its first range, from byte 0, is kept (NAME.part is cut after it), for
// a continuation over one connection that appends.
func (t *target) unsegment() error {
	t.held = t.resumeAt()
	t.spans, t.segs = nil, 0
	if err := t.f.Truncate(t.held); err != nil {
		return err
	}
	_, err := t.f.Seek(t.held, 0)
	return err
}

// writePartRecord stores what a segmented copy was made from and which
// ranges it holds. A record too long for maxRecord forgets its smallest
// ranges (their bytes are fetched again): it only ever claims less.
func writePartRecord(t *target, rec schemes.ResumeRecord, done spans) error {
	pr := partRecord{ResumeRecord: rec, Segments: t.segs, Done: slices.Clone(done)}
	for {
		b, err := json.Marshal(pr)
		if err != nil {
			return err
		}
		if len(b) <= maxRecord || len(pr.Done) == 0 {
			return setAttr(t.f, recordAttr, b)
		}
		i := 0
		for j, s := range pr.Done {
			if s.len() < pr.Done[i].len() {
				i = j
			}
		}
		pr.Done = slices.Delete(pr.Done, i, i+1)
	}
}

// warm readies, while the first request of a download in segments is
// under way, the sessions its other connections will take: one
// description of the resource (Stat) each, at once, whose connections
// then wait idle in the Client's pool (an FTP control connection logged
// in, in the file's directory; an HTTP keep-alive one), so that their
// ranges, asked for once the first answer tells the size, start without
// a login. Over a WAN an FTP login is a dozen round trips, which the
// connections after the first would otherwise wait for while the first
// one runs ahead. nil when there is nothing to ready.
func (c *Client) warm(ctx context.Context, loc schemes.Locator, t *target, opt DownloadOptions) *warming {
	n := opt.Segments
	if n == 0 {
		n = t.segs
	}
	caps := c.Caps(loc)
	if min(n, MaxSegments) < 2 || t.mode != intoPart || !caps.Has(schemes.Stats|schemes.Resumes) || caps.Has(schemes.Local) {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	others := min(n, MaxSegments) - 1
	w := &warming{cancel: cancel, done: make(chan struct{}), idle: make(chan struct{}, others)}
	var wg sync.WaitGroup
	for range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r, err := c.once(ctx, Request{Method: MethodStat, URL: loc}); err == nil {
				r.Close()
				w.idle <- struct{}{}
			}
		}()
	}
	go func() { wg.Wait(); close(w.done) }()
	return w
}

// warming is the sessions warm is readying.
type warming struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when every one is done
	// idle holds a token for each session readied and idle in the pool,
	// which one range takes (ready).
	idle chan struct{}
}

// ready waits until a readied session is idle in the pool that no other
// range has taken, for limit at most (a session that takes longer, a
// server that answers slowly, is not waited for), or until every
// readying is over (one that failed leaves the range to dial), or until
// ctx ends. Each range waits for one session, not for all: a login that
// lags (a server busy forking) holds back only the range that would have
// had it, while the others start on theirs.
func (w *warming) ready(ctx context.Context, limit time.Duration) {
	if w == nil {
		return
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-w.idle:
	case <-w.done:
	case <-t.C:
	case <-ctx.Done():
	}
}

// stop ends the readying, and waits until it has ended.
func (w *warming) stop() {
	if w == nil {
		return
	}
	w.cancel()
	<-w.done
}

// segmentsFor says over how many connections the response resp, the
// answer to the first request of an attempt, is fetched: 0 for the one
// it came on, the way a download goes without segments. Segments are
// used when asked (DownloadOptions.Segments, or the number a segmented
// copy being continued was made with), into NAME.part, for a scheme that
// resumes (it can ask for a range), a size the server announced of at
// least two segmentMin, and a file system that keeps the record of the
// ranges. Otherwise the download goes over one connection, and -v says
// why; a segmented copy then keeps only its first range (unsegment).
func (c *Client) segmentsFor(loc schemes.Locator, t *target, resp *Response, opt DownloadOptions) (int, error) {
	n := opt.Segments
	if n == 0 {
		n = t.segs
	}
	n = min(n, MaxSegments)
	if (n <= 1 && t.segs == 0) || resp.Body == nil || resp.Listing != nil || resp.Failure != nil {
		return 0, nil // an error page (Request.ErrorPages) is no file to split
	}
	why := ""
	switch {
	case t.mode != intoPart:
		why = "the file is written in place"
	case !c.Caps(resp.URL).Has(schemes.Resumes):
		why = "the scheme cannot ask for a range"
	case resp.Size < 0:
		why = "the server announced no size"
	case t.segs == 0 && resp.Size < 2*segmentMin:
		why = fmt.Sprintf("the file is smaller than %d MiB", 2*segmentMin>>20)
	default:
		// The record says which ranges are held: without it a partial
		// copy with holes could not be continued. A fresh one (or one
		// that starts over) holds nothing yet.
		done := spans{}
		switch {
		case t.segs > 0 && resp.Offset == t.resumeAt():
			done = t.spans
		case t.segs == 0 && t.held > 0 && resp.Offset == t.held:
			done = spans{{0, t.held}} // a copy written from its start, continued in segments
		}
		segs, was := t.segs, t.spans
		t.segs, t.spans = max(n, 1), done
		if err := writePartRecord(t, recordOf(resp.Response), done); err != nil {
			t.segs, t.spans = segs, was
			why = "the file system keeps no extended attributes, where the record of the ranges goes"
		}
	}
	if why == "" {
		return max(n, 1), nil
	}
	c.trace().Info("one connection, not segments: " + why)
	if t.segs > 0 {
		if err := t.unsegment(); err != nil {
			return 0, localError(loc, "write", err)
		}
	}
	return 0, nil
}

// segmented fetches the resource over n connections into NAME.part, the
// first of them resp's: the missing ranges are split in n, one a
// connection, each written at its offset; a connection that finishes
// continues with a range no one has taken, else takes over the end of the
// range that would finish last, when it can fetch it sooner (segRun). A
// copy being continued keeps its ranges while the resume rule allows;
// otherwise it starts over. The whole is then checked: the size, and the
// SHA-256 the server published.
//
// warmed waits (a while at most) until one of the sessions warm readied
// is idle, for a range to take it. A range that fails is asked for
// again under rs, the download's retries.
func (c *Client) segmented(ctx context.Context, req Request, t *target, res *Result, opt DownloadOptions, first *Response, n int, rs *retries, warmed func(context.Context)) error {
	loc := req.URL
	size := first.Size
	rec := recordOf(first.Response)
	keep := len(t.spans) > 0 && first.Offset == t.resumeAt()
	if keep && first.Offset == 0 {
		// Asked from byte 0, the handler had nothing to judge: the rule
		// is applied here, to what the response says of the remote.
		req := schemes.Request{Offset: t.held, Partial: t.partial}
		if ok, why := req.MayResume(remoteOf(first.Response)); !ok {
			c.trace().Info(why + ": starting over")
			keep = false
		}
	}
	if !keep {
		if first.Offset != 0 {
			return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "resume", Kind: schemes.KindProtocol, URL: loc.Redacted(),
				Msg: fmt.Sprintf("asked for byte %d on, the server sent from byte %d", t.resumeAt(), first.Offset)}
		}
		if err := c.settleOffset(loc, t, 0); err != nil {
			return err
		}
		res.Offset = 0
		t.spans = spans{}
		if err := writePartRecord(t, rec, nil); err != nil {
			return localError(loc, "write", err)
		}
	}
	if err := preallocate(t.f, size); err != nil {
		return localError(loc, "write", err)
	}
	t.partial.Record = &rec
	at := loc
	if originOf(first.URL) == originOf(loc) {
		at = first.URL // no redirect again for each range; never another origin's, which -u's login must not reach
	}
	s := &segRun{c: c, loc: at, t: t, size: size, rec: rec, done: slices.Clone(t.spans), warmed: warmed, retries: rs,
		req: Request{Partial: schemes.Partial{Record: &rec}, Exact: req.Exact}}
	err := s.run(ctx, first, n, opt.Progress)
	moved := s.moved.Load()
	t.spans = s.done
	t.held, t.wrote = s.done.total(), t.wrote+moved
	res.Bytes += moved
	res.Size = t.held
	res.Segments = max(res.Segments, s.used)
	c.trace().Info(fmt.Sprintf("segments: %d connections carried data, %d ranges asked for, %d taken over from a slower connection",
		s.used, s.requests, s.stolen))
	if err != nil {
		return err
	}
	return verify(loc, t.held, size, t.sum, first.SHA256)
}

// remoteOf is what r says of the remote, for the resume rule.
func remoteOf(r *schemes.Response) schemes.Remote {
	return schemes.Remote{ModTime: r.ModTime, Precision: r.Precision, Size: r.Size, ETag: r.ETag, Mode: r.Mode}
}

// sameSource says whether r, the answer to a range request, is of the
// resource rec describes, by the resume rule.
func sameSource(rec schemes.ResumeRecord, r *schemes.Response) (bool, string) {
	if rec.Size >= 0 && r.Size != rec.Size {
		return false, fmt.Sprintf("the remote's size changed (%d bytes, was %d)", r.Size, rec.Size)
	}
	req := schemes.Request{Offset: 1, Partial: schemes.Partial{Record: &rec}}
	return req.MayResume(remoteOf(r))
}

// errNoRanges: a server answered a range request with the whole resource
// before it had answered one with the range.
var errNoRanges = errors.New("the server does not send ranges")
