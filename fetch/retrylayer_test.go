package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/retryfake"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// countingDialer counts the connections handlers ask for, which is the
// only count of attempts a refused port allows.
type countingDialer struct {
	schemes.Dialer
	dials atomic.Int32
}

func (d *countingDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	d.dials.Add(1)
	return d.Dialer.Dial(ctx, scheme, host, port)
}

// retryClient is a Client of the real handlers, dialing through a
// counting dialer, that retries retries times after a short first wait.
func retryClient(retries int) (*Client, *countingDialer) {
	d := &countingDialer{Dialer: &transport.Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 10 * time.Second}}
	return &Client{Registry: defaultRegistry(), Dialer: d, Retries: retries, RetryDelay: 10 * time.Millisecond}, d
}

// transferPaths are the ways a transfer is made whole by Client: into a
// file (Download) and into a stream (Stream, the command's stdout). Each
// returns what arrived.
var transferPaths = []struct {
	name string
	run  func(t *testing.T, c *Client, raw string) (string, error)
}{
	{"Download", func(t *testing.T, c *Client, raw string) (string, error) {
		dest := filepath.Join(t.TempDir(), "f")
		_, err := c.Download(context.Background(), raw, dest, DownloadOptions{})
		got, _ := os.ReadFile(dest)
		return string(got), err
	}},
	{"Stream", func(t *testing.T, c *Client, raw string) (string, error) {
		loc, err := c.Parse(raw)
		if err != nil {
			return "", err
		}
		var out bytes.Buffer
		_, _, err = c.Stream(context.Background(), &Request{URL: loc}, &out, nil)
		return out.String(), err
	}},
}

// TestRetriesCountConnections: --retry N is at most N+1 attempts of the
// whole transfer, into a file or a stream alike, counted where they
// arrive: the dials to a refused port, the connections of a server that
// closes them at once, the requests a busy server (HTTP 503, FTP 421)
// turns away, and the transfers a server cuts short, each later one
// continuing after the bytes held (Range, REST) until the copy is whole.
func TestRetriesCountConnections(t *testing.T) {
	const retries = 2
	for _, tc := range []struct {
		name    string
		start   func(t *testing.T, d *countingDialer) (raw string, count func() int, offsets func() []int64)
		kind    schemes.Kind // of the final failure; KindOther: it succeeds
		offsets []int64      // where each attempt started, when the server says
	}{
		{"refused", func(t *testing.T, d *countingDialer) (string, func() int, func() []int64) {
			return retryfake.Refused(t), func() int { return int(d.dials.Load()) }, nil
		}, schemes.KindConnect, nil},
		{"closing", func(t *testing.T, _ *countingDialer) (string, func() int, func() []int64) {
			s := retryfake.Closing(t)
			return s.URL, s.Conns, nil
		}, schemes.KindConnect, nil},
		{"busy http 503", func(t *testing.T, _ *countingDialer) (string, func() int, func() []int64) {
			s := retryfake.HTTP(t, retryfake.Busy, 100)
			return s.URL, s.Conns, s.Offsets
		}, schemes.KindBusy, []int64{0, 0, 0}},
		{"busy ftp 421", func(t *testing.T, _ *countingDialer) (string, func() int, func() []int64) {
			s := retryfake.FTP(t, retryfake.Busy, 100)
			return s.URL, s.Conns, s.Offsets
		}, schemes.KindBusy, []int64{0, 0, 0}},
		{"cutting http", func(t *testing.T, _ *countingDialer) (string, func() int, func() []int64) {
			s := retryfake.HTTP(t, retryfake.Cut, retries)
			return s.URL, s.Conns, s.Offsets
		}, schemes.KindOther, []int64{0, 5000, 7500}},
		{"cutting ftp", func(t *testing.T, _ *countingDialer) (string, func() int, func() []int64) {
			s := retryfake.FTP(t, retryfake.Cut, retries)
			return s.URL, s.Conns, s.Offsets
		}, schemes.KindOther, []int64{0, 5000, 7500}},
	} {
		for _, p := range transferPaths {
			t.Run(tc.name+"/"+p.name, func(t *testing.T) {
				t.Parallel()
				c, d := retryClient(retries)
				raw, count, offsets := tc.start(t, d)
				begin := time.Now()
				got, err := p.run(t, c, raw)
				if n := count(); n != retries+1 {
					t.Errorf("%d connections, want %d (err %v)", n, retries+1, err)
				}
				if offsets != nil && !slices.Equal(offsets(), tc.offsets) {
					t.Errorf("attempts started at %v, want %v", offsets(), tc.offsets)
				}
				if tc.kind == schemes.KindOther {
					if err != nil || got != retryfake.Body {
						t.Fatalf("err %v, %d bytes (whole: %v)", err, len(got), got == retryfake.Body)
					}
					return
				}
				if schemes.KindOf(err) != tc.kind {
					t.Fatalf("err %v (%v), want %v", err, schemes.KindOf(err), tc.kind)
				}
				if tc.kind == schemes.KindBusy && time.Since(begin) < retries*time.Second {
					t.Errorf("took %v: the server's Retry-After: 1 was not honoured between attempts", time.Since(begin))
				}
			})
		}
	}
}

// TestMaxTimeBoundsEachAttempt: MaxTime (-m) bounds each attempt, not all
// of them: a server that stalls the first transfer halfway and answers
// the second is read whole with one retry, the second attempt continuing
// after what the first held; and an attempt it cuts short says so.
func TestMaxTimeBoundsEachAttempt(t *testing.T) {
	for _, newServer := range []func(testing.TB, retryfake.Fault, int) *retryfake.Server{retryfake.HTTP, retryfake.FTP} {
		for _, p := range transferPaths {
			s := newServer(t, retryfake.Stall, 1)
			t.Run(strings.Split(s.URL, ":")[0]+"/"+p.name, func(t *testing.T) {
				t.Parallel()
				c, _ := retryClient(1)
				c.MaxTime = 500 * time.Millisecond
				var notes []string
				c.Notify = func(m string) { notes = append(notes, m) }
				got, err := p.run(t, c, s.URL)
				if err != nil || got != retryfake.Body {
					t.Fatalf("err %v, %d bytes (whole: %v)", err, len(got), got == retryfake.Body)
				}
				if off := s.Offsets(); !slices.Equal(off, []int64{0, 5000}) {
					t.Errorf("attempts started at %v, want [0 5000]", off)
				}
				if len(notes) == 0 || !strings.Contains(notes[len(notes)-1], "fetch.MaxTime 0.5s expired; retrying") {
					t.Errorf("notes %q, want the expiry retried", notes)
				}
			})
		}
	}
}

// TestMaxTimeExpiryKeepsHowToContinue: an attempt MaxTime cut short
// while a download held bytes says both that it expired and where the
// partial copy is kept; a timeout, exit 5.
func TestMaxTimeExpiryKeepsHowToContinue(t *testing.T) {
	s := retryfake.HTTP(t, retryfake.Stall, 1)
	c, _ := retryClient(0)
	c.MaxTime = 300 * time.Millisecond
	c.SettingName = func(s string) string { // the caller's words, a command's flag
		if s == SettingMaxTime {
			return "-m"
		}
		return ""
	}
	dest := filepath.Join(t.TempDir(), "f")
	_, err := c.Download(context.Background(), s.URL, dest, DownloadOptions{})
	want := s.URL + ": -m 0.3s expired; the partial copy is kept in " + dest + ".part: continue with -C -"
	if err == nil || err.Error() != want || schemes.KindOf(err) != schemes.KindTimeout {
		t.Fatalf("got %v (%v), want %q", err, schemes.KindOf(err), want)
	}
}

// TestMaxTimeBoundsReadingAListing: a List's attempt goes on while its
// Listing is read, and is bounded by MaxTime too; closing it ends it.
func TestMaxTimeBoundsReadingAListing(t *testing.T) {
	h := &stallingLister{}
	c := &Client{Registry: schemes.NewRegistry(), MaxTime: 200 * time.Millisecond}
	policyScheme(c, "s", schemes.Retrieves|schemes.Lists, h)
	resp, err := c.List(context.Background(), "s:dir")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	if _, err := resp.Listing.Next(); err != nil {
		t.Fatalf("first entry: %v", err)
	}
	_, err = resp.Listing.Next()
	var mt *MaxTimeExpired
	if schemes.KindOf(err) != schemes.KindTimeout || !errors.As(err, &mt) || !schemes.IsRetryable(err) {
		t.Fatalf("second entry: %v, want the --max-time expiry", err)
	}
}

// stallingLister lists one entry, then waits for its request's context.
type stallingLister struct{ recorder }

func (h *stallingLister) List(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return &schemes.Response{Listing: &stallAfterOne{done: ctx.Done(), err: ctx.Err}}, nil
}

func (h *stallingLister) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.List(ctx, req)
}

type stallAfterOne struct {
	done <-chan struct{}
	err  func() error
	sent bool
}

func (l *stallAfterOne) Next() (schemes.Entry, error) {
	if !l.sent {
		l.sent = true
		return schemes.Entry{Name: "a", Kind: schemes.EntryFile}, nil
	}
	<-l.done
	return schemes.Entry{}, schemes.IOError("s", "list", l.err())
}

func (l *stallAfterOne) Close() error { return nil }

// TestRetryMaxTime: no retry starts once RetryMaxTime has passed, nor
// when the wait before it would pass it; an attempt already running is
// not cut short by it.
func TestRetryMaxTime(t *testing.T) {
	for _, tc := range []struct {
		limit, delay time.Duration
		attempts     int
	}{
		{0, time.Millisecond, 4},                 // no limit: every retry
		{10 * time.Second, time.Millisecond, 4},  // within the limit
		{500 * time.Millisecond, time.Second, 1}, // the first wait would pass it
	} {
		h := &fakeHandler{data: map[string]string{"x": "ok"}, failFirst: 100}
		c := newClient(h)
		c.Retries, c.RetryDelay, c.RetryMaxTime = 3, tc.delay, tc.limit
		var notes []string
		c.Notify = func(m string) { notes = append(notes, m) }
		_, err := c.Get(context.Background(), "t:x")
		if schemes.KindOf(err) != schemes.KindConnect || h.fetches != tc.attempts {
			t.Errorf("limit %v, delay %v: %d attempts (err %v), want %d", tc.limit, tc.delay, h.fetches, err, tc.attempts)
		}
		if tc.attempts == 1 && (len(notes) != 1 || !strings.Contains(notes[0], "not retried: waiting 1s would pass fetch.RetryMaxTime 0.5s")) {
			t.Errorf("notes %q, want why it was not retried", notes)
		}
	}
	// A slow first attempt outlasts the limit and still completes.
	h := &fakeHandler{data: map[string]string{"x": "ok"}, wrap: func(r io.Reader) io.Reader { return &slowReader{r: r, wait: 300 * time.Millisecond} }}
	c := newClient(h)
	c.Retries, c.RetryMaxTime = 1, 50*time.Millisecond
	var out bytes.Buffer
	loc, _ := c.Parse("t:x")
	if _, n, err := c.Stream(context.Background(), &Request{URL: loc}, &out, nil); err != nil || n != 2 || out.String() != "ok" {
		t.Fatalf("got %q (%d bytes), err %v", out.String(), n, err)
	}
}

// slowReader waits before its first read.
type slowReader struct {
	r     io.Reader
	wait  time.Duration
	ready bool
}

func (s *slowReader) Read(p []byte) (int, error) {
	if !s.ready {
		time.Sleep(s.wait)
		s.ready = true
	}
	return s.r.Read(p)
}

// TestStreamNeverSendsBytesTwice: a stream continued by a server that
// sends the resource from its start again ends there, since the bytes
// written cannot be taken back; one that continues it is whole.
func TestStreamNeverSendsBytesTwice(t *testing.T) {
	for _, noResume := range []bool{false, true} {
		h := &fakeHandler{data: map[string]string{"x": "0123456789"}, cutAfter: 4, noResume: noResume}
		c := newClient(h)
		c.Retries = 3
		loc, _ := c.Parse("t:x")
		var out bytes.Buffer
		resp, n, err := c.Stream(context.Background(), &Request{URL: loc}, &out, nil)
		switch {
		case noResume && (schemes.KindOf(err) != schemes.KindProtocol || !strings.Contains(err.Error(), "cannot be taken back") ||
			out.String() != "0123" || n != 4 || h.fetches != 2):
			t.Errorf("no resume: %q (%d), err %v, %d fetches; want the 4 bytes and a refusal after 2", out.String(), n, err, h.fetches)
		case !noResume && (err != nil || out.String() != "0123456789" || n != 10 || !slices.Equal(h.offsets, []int64{0, 4}) || resp == nil):
			t.Errorf("resume: %q (%d), err %v, offsets %v", out.String(), n, err, h.offsets)
		}
	}
}
