package fetch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// rangeServer is a scheme "t" that serves one resource from any offset
// under the resume rule, and counts what each request's body delivered:
// a fetch is a connection.
type rangeServer struct {
	data []byte
	mod  time.Time
	etag string
	// slow, if set, says which requests (by number, from 0) deliver
	// slowly after their first read: 64 KiB every 20 ms.
	slow func(i int) bool
	// cut, if > 0, ends every body with a reset after that many bytes.
	cut int64
	// whole ignores Offset, as a server without ranges.
	whole bool

	mu      sync.Mutex
	offsets []int64
	sent    []*atomic.Int64
}

func (s *rangeServer) Explain(req *schemes.Request) ([]string, error) { return nil, nil }

func (s *rangeServer) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	s.mu.Lock()
	i := len(s.offsets)
	s.offsets = append(s.offsets, req.Offset)
	n := &atomic.Int64{}
	s.sent = append(s.sent, n)
	s.mu.Unlock()
	size := int64(len(s.data))
	off := int64(0)
	if ok, _ := req.MayResume(schemes.Remote{ModTime: s.mod, Precision: time.Second, Size: size, ETag: s.etag}); ok && !s.whole {
		off = req.Offset
	}
	b := &countingBody{ctx: ctx, r: bytes.NewReader(s.data[off:]), n: n, limit: s.cut}
	if s.slow != nil && s.slow(i) {
		b.slow = true
	}
	return &schemes.Response{Body: b, Offset: off, Size: size, ModTime: s.mod, Precision: time.Second, ETag: s.etag}, nil
}

// total is every byte the bodies delivered.
func (s *rangeServer) total() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t int64
	for _, n := range s.sent {
		t += n.Load()
	}
	return t
}

type countingBody struct {
	ctx   context.Context
	r     io.Reader
	n     *atomic.Int64
	limit int64
	slow  bool
}

func (b *countingBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if b.limit > 0 && b.n.Load() >= b.limit {
		return 0, &schemes.Error{Scheme: "t", Kind: schemes.KindConnect, Retryable: true, Msg: "connection reset by peer"}
	}
	if b.limit > 0 {
		p = p[:min(int64(len(p)), b.limit-b.n.Load())]
	}
	// 64 KiB a read, every millisecond (64 MiB/s), as a fast link; a slow
	// connection's every 20 ms, after its first.
	p = p[:min(len(p), 64<<10)]
	pause := time.Millisecond
	if b.slow && b.n.Load() > 0 {
		pause = 20 * time.Millisecond
	}
	select {
	case <-time.After(pause):
	case <-b.ctx.Done():
		return 0, b.ctx.Err()
	}
	n, err := b.r.Read(p)
	b.n.Add(int64(n))
	return n, err
}

func (b *countingBody) Close() error { return nil }

func rangeClient(s *rangeServer) *Client {
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "t", Handler: s, Caps: schemes.Retrieves | schemes.Resumes,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	return &Client{Registry: r, RetryDelay: time.Millisecond}
}

func randomData(n int) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{1})
	r.Read(b)
	return b
}

func sameFile(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sha256.Sum256(got) != sha256.Sum256(want) {
		t.Fatalf("%s: %d bytes, SHA-256 differs from the resource's (%d bytes)", path, len(got), len(want))
	}
}

// TestSegmentsSplitAndStealFromASlowConnection: four connections share
// the file; the second is slow (3 MiB/s), and the others take its range
// over as they finish theirs, so it delivers a fraction of its share.
func TestSegmentsSplitAndStealFromASlowConnection(t *testing.T) {
	data := randomData(24 << 20)
	s := &rangeServer{data: data, mod: time.Unix(1e9, 0), etag: `"a"`, slow: func(i int) bool { return i == 1 }}
	c := rangeClient(s)
	dest := filepath.Join(t.TempDir(), "f")
	res, err := c.Download(context.Background(), "t:f", dest, DownloadOptions{Segments: 4})
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, dest, data)
	for i, n := range s.sent {
		t.Logf("request %d from %d: %d bytes", i, s.offsets[i], n.Load())
	}
	if res.Segments != 4 {
		t.Errorf("Segments = %d, want 4", res.Segments)
	}
	share := int64(len(data) / 4)
	if got := s.sent[1].Load(); got > share/2 {
		t.Errorf("the slow connection delivered %d bytes of its share of %d: its range was not taken over", got, share)
	}
	if len(s.offsets) <= 4 {
		t.Errorf("requests at %v: none took a range over", s.offsets)
	}
	if total := s.total(); total > int64(len(data))+int64(len(s.offsets))*segmentBuffer {
		t.Errorf("%d bytes delivered for %d", total, len(data))
	}
	assertOnly(t, filepath.Dir(dest), "f")
}

// TestSegmentsBodyAheadOfItsRange: a connection whose range was taken
// over while a read was in flight wrote only up to its new end, and its
// body stands past it; when the range taken over comes back unclaimed
// (the taker's request failed), that body must not go on into it (every
// byte after would land at the wrong offset): the range is asked for
// anew. One that wrote all it read goes on into it, with no request.
func TestSegmentsBodyAheadOfItsRange(t *testing.T) {
	for _, ahead := range []bool{false, true} {
		s := &segRun{size: 100, queue: spans{{50, 100}}}
		sg := &segment{pos: 50, end: 50, ahead: ahead}
		s.active = []*segment{sg}
		next := s.next(sg, true)
		if same := next == sg; same == ahead {
			t.Errorf("ahead %v: the body went on into the range: %v", ahead, same)
		}
		if next == nil || next.pos != 50 || next.end != 100 {
			t.Errorf("ahead %v: next range %+v, want [50, 100)", ahead, next)
		}
	}
}

// TestSegmentsResumeOnlyMissingRanges: a download whose every connection
// breaks after 1 MiB keeps NAME.part with its ranges; -C - then asks only
// for the missing ones, and they are all the server sends.
func TestSegmentsResumeOnlyMissingRanges(t *testing.T) {
	data := randomData(20 << 20)
	s := &rangeServer{data: data, mod: time.Unix(1e9, 0), etag: `"a"`, cut: 1 << 20}
	c := rangeClient(s)
	dest := filepath.Join(t.TempDir(), "f")
	_, err := c.Download(context.Background(), "t:f", dest, DownloadOptions{Segments: 4})
	var pk *PartialKept
	if !errors.As(err, &pk) {
		t.Fatalf("err = %v, want the partial copy kept", err)
	}
	f, err := os.Open(dest + PartSuffix)
	if err != nil {
		t.Fatal(err)
	}
	rec := readPartRecord(f)
	f.Close()
	if rec == nil || rec.Segments != 4 || rec.Done.total() == 0 {
		t.Fatalf("record %+v, want the ranges done", rec)
	}
	held := rec.Done.total()
	for _, d := range rec.Done { // what the record claims is the resource's
		part, _ := os.ReadFile(dest + PartSuffix)
		if !bytes.Equal(part[d.Start:d.End], data[d.Start:d.End]) {
			t.Fatalf("range %v of the partial copy is not the resource's", d)
		}
	}
	s2 := &rangeServer{data: data, mod: s.mod, etag: s.etag}
	res, err := rangeClient(s2).Download(context.Background(), "t:f", dest, DownloadOptions{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, dest, data)
	// A connection whose range is taken over may have read up to a
	// buffer past its new end.
	slack := int64(len(s2.offsets)) * segmentBuffer
	if got, want := s2.total(), int64(len(data))-held; got < want || got > want+slack {
		t.Errorf("the second run was sent %d bytes, want the %d missing", got, want)
	}
	if res.Offset != held || res.Bytes != int64(len(data))-held {
		t.Errorf("Offset %d, Bytes %d; want %d held and the rest", res.Offset, res.Bytes, held)
	}
	for _, off := range s2.offsets {
		for _, d := range rec.Done {
			if off >= d.Start && off < d.End {
				t.Errorf("asked from byte %d, which the partial copy held (%v)", off, d)
			}
		}
	}
}

// TestSegmentsContinueACopyMadeOverOne: a partial copy written from its
// start, continued with Segments, keeps its bytes and fetches the rest in
// segments.
func TestSegmentsContinueACopyMadeOverOne(t *testing.T) {
	data := randomData(20 << 20)
	s := &rangeServer{data: data, mod: time.Unix(1e9, 0), etag: `"a"`, cut: 5 << 20}
	dest := filepath.Join(t.TempDir(), "f")
	if _, err := rangeClient(s).Download(context.Background(), "t:f", dest, DownloadOptions{}); err == nil {
		t.Fatal("the cut download succeeded")
	}
	s2 := &rangeServer{data: data, mod: s.mod, etag: s.etag}
	res, err := rangeClient(s2).Download(context.Background(), "t:f", dest, DownloadOptions{Resume: true, Segments: 4})
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, dest, data)
	if res.Offset != 5<<20 || res.Segments < 2 || s2.offsets[0] != 5<<20 {
		t.Errorf("Offset %d, Segments %d, requests from %v; want 5 MiB kept and the rest in segments", res.Offset, res.Segments, s2.offsets)
	}
}

// downloadInFour downloads "t:f" from h, a scheme that stats, in four
// segments, and checks the copy is data.
func downloadInFour(t *testing.T, h schemes.Handler, data []byte) *Result {
	t.Helper()
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "t", Handler: h, Caps: schemes.Retrieves | schemes.Resumes | schemes.Stats,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	c := &Client{Registry: r}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dest := filepath.Join(t.TempDir(), "f")
	res, err := c.Download(ctx, "t:f", dest, DownloadOptions{Segments: 4})
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, dest, data)
	return res
}

// hangingStat is a rangeServer whose Stat (how a download in segments
// readies its other connections) never answers.
type hangingStat struct {
	*rangeServer
	stats atomic.Int32
}

func (h *hangingStat) Stat(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.stats.Add(1)
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestSegmentsReadyingThatHangs: the sessions readied for the ranges are
// waited for a while only (as long as the first request took, a second
// at least): a server that never answers the readying still gets its
// ranges asked for, and the download ends.
func TestSegmentsReadyingThatHangs(t *testing.T) {
	data := randomData(24 << 20)
	// 3 MiB/s a connection: the first takes two seconds over its quarter,
	// past the second the readying is waited for.
	h := &hangingStat{rangeServer: &rangeServer{data: data, slow: func(int) bool { return true }}}
	res := downloadInFour(t, h, data)
	if h.stats.Load() != 3 || res.Segments < 2 {
		t.Errorf("%d sessions readied, %d segments; want 3, and ranges asked for before the readying ended", h.stats.Load(), res.Segments)
	}
}

// laggingStat is a rangeServer whose first Stat (a readying) does not
// answer until its context ends, while the others answer at once: one
// login of several that lags.
type laggingStat struct {
	*rangeServer
	stats atomic.Int32
}

func (l *laggingStat) Stat(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	if l.stats.Add(1) == 1 {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return &schemes.Response{Size: int64(len(l.data)), ModTime: l.mod, Precision: time.Second}, nil
}

// TestSegmentsOneReadyingLags: a range waits for one readied session, not
// for all of them. With one readying that never answers, the two readied
// at once start their ranges while the first connection is still on its
// quarter; the whole takes 0.4 s at 64 MiB/s, less than the second the
// lagging one would be waited for, so waiting for all would leave the
// first connection to carry everything.
func TestSegmentsOneReadyingLags(t *testing.T) {
	data := randomData(24 << 20)
	l := &laggingStat{rangeServer: &rangeServer{data: data}}
	res := downloadInFour(t, l, data)
	l.mu.Lock()
	offsets := slices.Clone(l.offsets)
	l.mu.Unlock()
	if l.stats.Load() != 3 || res.Segments < 3 {
		t.Errorf("%d sessions readied, %d connections carried data (requests from %v); want 3 readied and the two ready at once used",
			l.stats.Load(), res.Segments, offsets)
	}
}

// TestSegmentsSourceChangedStartsOver: a partial copy of a resource that
// changed since (another ETag) is not continued: all of it comes again.
func TestSegmentsSourceChangedStartsOver(t *testing.T) {
	data := randomData(20 << 20)
	s := &rangeServer{data: data, mod: time.Unix(1e9, 0), etag: `"a"`, cut: 1 << 20}
	dest := filepath.Join(t.TempDir(), "f")
	if _, err := rangeClient(s).Download(context.Background(), "t:f", dest, DownloadOptions{Segments: 4}); err == nil {
		t.Fatal("the cut download succeeded")
	}
	changed := randomData(20 << 20)
	changed[0] ^= 1
	copy(changed[5<<20:], "changed")
	s2 := &rangeServer{data: changed, mod: time.Unix(2e9, 0), etag: `"b"`}
	if _, err := rangeClient(s2).Download(context.Background(), "t:f", dest, DownloadOptions{Resume: true}); err != nil {
		t.Fatal(err)
	}
	sameFile(t, dest, changed)
	if got := s2.total(); got < int64(len(changed)) {
		t.Errorf("sent %d bytes of %d: the stale ranges were kept", got, len(changed))
	}
}

// TestSegmentsServerWithoutRanges: a server that answers every range with
// the whole resource gets one connection, which fetches it all.
func TestSegmentsServerWithoutRanges(t *testing.T) {
	data := randomData(12 << 20)
	s := &rangeServer{data: data, whole: true}
	dest := filepath.Join(t.TempDir(), "f")
	res, err := rangeClient(s).Download(context.Background(), "t:f", dest, DownloadOptions{Segments: 4})
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, dest, data)
	if res.Segments != 1 {
		t.Errorf("Segments = %d, want 1", res.Segments)
	}
	if s.sent[0].Load() != int64(len(data)) {
		t.Errorf("the first connection delivered %d bytes, want all %d", s.sent[0].Load(), len(data))
	}
}

// TestSegmentsSmallFileOneConnection: below 8 MiB one request.
func TestSegmentsSmallFileOneConnection(t *testing.T) {
	data := randomData(2*segmentMin - 1)
	s := &rangeServer{data: data}
	dest := filepath.Join(t.TempDir(), "f")
	var trace strings.Builder
	c := rangeClient(s)
	c.Trace = infoTrace{&trace}
	res, err := c.Download(context.Background(), "t:f", dest, DownloadOptions{Segments: 4})
	if err != nil {
		t.Fatal(err)
	}
	sameFile(t, dest, data)
	if len(s.offsets) != 1 || res.Segments != 0 {
		t.Errorf("%d requests, Segments %d; want one, none", len(s.offsets), res.Segments)
	}
	if !strings.Contains(trace.String(), "smaller than 8 MiB") {
		t.Errorf("trace %q does not say why", trace.String())
	}
}

type infoTrace struct{ b *strings.Builder }

func (t infoTrace) Sent(string)     {}
func (t infoTrace) Received(string) {}
func (t infoTrace) Secret(string)   {}
func (t infoTrace) Info(m string)   { t.b.WriteString(m + "\n") }

// rangeHTTP is an HTTP server of data with Range (http.ServeContent),
// or without (ranges false: 200 and everything); it records each
// request's Range.
func rangeHTTP(t *testing.T, data []byte, ranges bool) (*httptest.Server, *[]string) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Range"))
		mu.Unlock()
		if !ranges {
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			io.Copy(w, paced{bytes.NewReader(data)})
			return
		}
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, "f", time.Unix(1e9, 0), paced{bytes.NewReader(data)})
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

// paced reads 64 KiB a millisecond at most (64 MiB/s), so that a
// connection does not finish its range before the others' first bytes.
type paced struct{ *bytes.Reader }

func (p paced) Read(b []byte) (int, error) {
	time.Sleep(time.Millisecond)
	return p.Reader.Read(b[:min(len(b), 64<<10)])
}

// TestSegmentsHTTP: the http handler's Range through httptest, byte
// exact; a server without ranges gets its whole body read once.
func TestSegmentsHTTP(t *testing.T) {
	data := randomData(16 << 20)
	for _, ranges := range []bool{true, false} {
		t.Run(strconv.FormatBool(ranges), func(t *testing.T) {
			srv, got := rangeHTTP(t, data, ranges)
			dest := filepath.Join(t.TempDir(), "f")
			var c Client
			defer c.CloseIdleConnections()
			c.Dialer = &transport.Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 10 * time.Second}
			res, err := c.Download(context.Background(), srv.URL+"/f", dest, DownloadOptions{Segments: 4})
			if err != nil {
				t.Fatal(err)
			}
			sameFile(t, dest, data)
			// At loopback speed the first connection may finish its
			// range before another's first byte and go on with that
			// one's range: two at least, then.
			if ranges && res.Segments < 2 || !ranges && res.Segments != 1 {
				t.Errorf("Segments = %d (requests %q), want several with ranges, one without", res.Segments, *got)
			}
		})
	}
}
