package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// fakeLoc is the typed value of the test scheme "t": t:NAME.
type fakeLoc struct{ u *schemes.URL }

func (l fakeLoc) Generic() *schemes.URL { return l.u }
func (l fakeLoc) String() string        { return l.u.String() }
func (l fakeLoc) Redacted() string      { return l.u.Redacted() }
func (l fakeLoc) Fields() any           { return map[string]string{"name": l.u.Opaque} }
func (l fakeLoc) LocalName() string     { return schemes.LastSegmentName(l.u.Opaque) }

// fakeHandler serves resources from a map and scripts failures.
type fakeHandler struct {
	mu        sync.Mutex
	data      map[string]string
	redirects map[string]string
	failFirst int   // fail this many fetches with a retryable error
	cutAfter  int   // send only this many bytes of the next body (then fail), if > 0
	noResume  bool  // ignore Offset and send everything
	lieSize   int64 // announce this size instead, if non-zero
	sha       map[string]string
	fetches   int
	offsets   []int64
	hops      [][]int // each fetch's Request.Redirects
	// viaReadFrom makes bodies hand their data to the destination's
	// ReadFrom, as the ftp body does when it splices.
	viaReadFrom bool
	// wrap, if set, replaces each body's reader (a slow or chunked body).
	wrap func(io.Reader) io.Reader
	mod  time.Time // the resource's modification time, zero if unknown
	// noSize announces no size (-1), as a server without Content-Length.
	noSize bool
	// bounds honours Length and Suffix, as a server that sends ranges
	// (HTTP's 206) does; without it they are ignored, as FTP's RETR
	// ignores an end, and the Client cuts the body.
	bounds  bool
	lengths []int64 // each request's Length
}

func (h *fakeHandler) Explain(req *schemes.Request) ([]string, error) {
	return []string{"GET " + req.URL.Generic().Opaque}, nil
}

func (h *fakeHandler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fetches++
	h.offsets = append(h.offsets, req.Offset)
	h.hops = append(h.hops, req.Redirects)
	name := req.URL.Generic().Opaque
	if h.failFirst > 0 {
		h.failFirst--
		return nil, &schemes.Error{Scheme: "t", Kind: schemes.KindConnect, Retryable: true, Msg: "connection refused"}
	}
	if to, ok := h.redirects[name]; ok {
		return &schemes.Response{Redirect: to, Status: 302, Body: io.NopCloser(strings.NewReader(""))}, nil
	}
	body, ok := h.data[name]
	if !ok {
		return nil, &schemes.Error{Scheme: "t", Kind: schemes.KindNotFound, Code: 404, URL: req.URL.Redacted(), Msg: "not found"}
	}
	size := int64(len(body))
	if h.lieSize != 0 {
		size = h.lieSize
	}
	off := req.Offset
	if h.noResume {
		off = 0
	} else if err := req.RangeError("t", int64(len(body)), 0); err != nil {
		return nil, err
	}
	h.lengths = append(h.lengths, req.Length)
	if h.bounds && req.Suffix > 0 {
		off = max(size-req.Suffix, 0)
	}
	data := body[off:]
	length := int64(0)
	if h.bounds && req.Length > 0 && req.Length < int64(len(data)) {
		data, length = data[:req.Length], req.Length
	}
	var r io.Reader = strings.NewReader(data)
	if h.cutAfter > 0 {
		r = io.MultiReader(io.LimitReader(r, int64(h.cutAfter)), errReader{})
		h.cutAfter = 0
	}
	if h.viaReadFrom {
		r = handsToReadFrom{r}
	}
	if h.wrap != nil {
		r = h.wrap(r)
	}
	if h.noSize {
		size = -1
	}
	return &schemes.Response{Body: io.NopCloser(r), Offset: off, Length: length, Size: size, Name: name, SHA256: h.sha[name],
		ModTime: h.mod, Precision: time.Second}, nil
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

func newClient(h *fakeHandler) *Client {
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "t", Handler: h, Caps: schemes.Retrieves | schemes.Resumes | schemes.RedirectTarget | schemes.Ranges,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	return &Client{Registry: r, RetryDelay: time.Millisecond}
}

func TestGetFollowsRedirectsWithinLimit(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"c": "final"}, redirects: map[string]string{"a": "t:b", "b": "t:c"}}
	c := newClient(h)
	var notes []string
	c.Notify = func(m string) { notes = append(notes, m) }
	tr := schemestest.NewScopeTrace()
	c.Trace = tr
	resp, err := c.Get(context.Background(), "t:a")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if string(got) != "final" || resp.URL.String() != "t:c" {
		t.Fatalf("got %q from %s", got, resp.URL)
	}
	if n := len(tr.ScopesOf("* t:")); n != 2 || len(notes) != 0 {
		t.Errorf("trace %q, notes %q; want one trace line per redirect and no note (-v shows redirects)", tr.Lines(), notes)
	}
	c.MaxRedirects = 1
	if _, err := c.Get(context.Background(), "t:a"); schemes.KindOf(err) != schemes.KindProtocol || !strings.Contains(err.Error(), "too many redirects") {
		t.Fatalf("limit 1: err = %v", err)
	}
}

func TestRetryOnlyRetryable(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"x": "ok"}, failFirst: 2}
	c := newClient(h)
	c.Retries = 1
	if _, err := c.Get(context.Background(), "t:x"); schemes.KindOf(err) != schemes.KindConnect {
		t.Fatalf("1 retry for 2 failures: err = %v", err)
	}
	h.failFirst, h.fetches = 2, 0
	c.Retries = 2
	resp, err := c.Get(context.Background(), "t:x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if h.fetches != 3 {
		t.Errorf("fetches = %d, want 3", h.fetches)
	}
	h.fetches = 0
	if _, err := c.Get(context.Background(), "t:missing"); !errors.Is(err, fs.ErrNotExist) || h.fetches != 1 {
		t.Errorf("not found retried: fetches=%d err=%v", h.fetches, err)
	}
}

func TestDownloadWritesCompleteFileOnly(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.txt")
	h := &fakeHandler{data: map[string]string{"x": "hello, world"}}
	res, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dest); string(b) != "hello, world" || res.Size != 12 || res.Bytes != 12 {
		t.Fatalf("file %q, result %+v", b, res)
	}
	assertOnly(t, dir, "out.txt")
}

func TestDownloadTruncatedKeepsPart(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.bin")
	h := &fakeHandler{data: map[string]string{"x": "0123456789"}, lieSize: 20}
	_, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{})
	if err == nil || !strings.Contains(err.Error(), "truncated: got 10 of 20") || !schemes.IsRetryable(err) ||
		!strings.HasSuffix(err.Error(), "the partial copy is kept in "+dest+PartSuffix+": continue with -C -") {
		t.Fatalf("err = %v", err)
	}
	assertOnly(t, dir, "out.bin"+PartSuffix)
}

func TestDownloadInterruptedRetriesByResuming(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.bin")
	h := &fakeHandler{data: map[string]string{"x": "0123456789"}, cutAfter: 4}
	c := newClient(h)
	c.Retries = 1
	if _, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dest); string(b) != "0123456789" {
		t.Fatalf("file %q", b)
	}
	if want := []int64{0, 4}; !slices.Equal(h.offsets, want) {
		t.Errorf("offsets %v, want %v", h.offsets, want)
	}
	assertOnly(t, dir, "out.bin")
}

// TestDownloadResumeFromPartAndFromDest: -C - continues NAME.part and
// renames it; with no NAME.part it appends to NAME itself, in place (the
// same file, never renamed away and back).
func TestDownloadResumeFromPartAndFromDest(t *testing.T) {
	for _, tc := range []struct {
		start   string
		inPlace bool
	}{
		{"out.bin" + PartSuffix, false},
		{"out.bin", true},
	} {
		t.Run(tc.start, func(t *testing.T) {
			dir := t.TempDir()
			dest := filepath.Join(dir, "out.bin")
			os.WriteFile(filepath.Join(dir, tc.start), []byte("01234"), 0o644)
			before, _ := os.Stat(filepath.Join(dir, tc.start))
			h := &fakeHandler{data: map[string]string{"x": "0123456789"}}
			res, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true})
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(dest); string(b) != "0123456789" || res.Offset != 5 || res.Bytes != 5 {
				t.Fatalf("file %q result %+v", b, res)
			}
			after, _ := os.Stat(dest)
			if !os.SameFile(before, after) {
				t.Errorf("%s is not the file that was continued", dest)
			}
			if tc.inPlace && h.offsets[0] != 5 {
				t.Errorf("asked from %v, want 5", h.offsets)
			}
			assertOnly(t, dir, "out.bin")
		})
	}
}

func TestDownloadResumeIgnoredStartsOver(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.bin")
	os.WriteFile(dest+PartSuffix, []byte("stale"), 0o644)
	h := &fakeHandler{data: map[string]string{"x": "0123456789"}, noResume: true}
	res, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dest); string(b) != "0123456789" {
		t.Fatalf("stale data appended: %q", b)
	}
	// The stale bytes are not in the file: the result says it started over.
	if res.Offset != 0 || res.Bytes != 10 || res.Size != 10 {
		t.Errorf("result %+v, want offset 0 and 10 bytes", res)
	}
}

func TestDownloadResumeKeepsPartialOnFailure(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.bin")
	h := &fakeHandler{data: map[string]string{"x": "0123456789"}, cutAfter: 3}
	if _, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true}); err == nil {
		t.Fatal("cut transfer succeeded")
	}
	if b, _ := os.ReadFile(dest + PartSuffix); string(b) != "012" {
		t.Fatalf("partial %q", b)
	}
	assertOnly(t, dir, "out.bin"+PartSuffix)
}

// TestDownloadChecksumMismatch: wrong data is exit 6 and goes away, and
// the user's file stays as it was: not replaced, and when it was being
// continued in place, cut back to its length before the run.
func TestDownloadChecksumMismatch(t *testing.T) {
	good := sha256.Sum256([]byte("abc"))
	for _, tc := range []struct {
		name   string
		dest   string // NAME's content before, "" for none
		resume bool
	}{
		{"new file", "", true},
		{"user's file kept", "old", false},
		{"continued in place, restored", "ab", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dest := filepath.Join(dir, "out.bin")
			if tc.dest != "" {
				os.WriteFile(dest, []byte(tc.dest), 0o644)
			}
			h := &fakeHandler{data: map[string]string{"x": "abd", "y": "abc"},
				sha: map[string]string{"x": hex.EncodeToString(good[:]), "y": hex.EncodeToString(good[:])}}
			c := newClient(h)
			c.Retries = 2
			_, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{Resume: tc.resume})
			if schemes.KindOf(err) != schemes.KindProtocol || !errors.Is(err, errCorrupt) || strings.Contains(err.Error(), "-C -") {
				t.Fatalf("err = %v, want a protocol error without a note to continue", err)
			}
			if h.fetches != 1 {
				t.Errorf("%d fetches: a checksum mismatch is not retried", h.fetches)
			}
			if tc.dest == "" {
				assertOnly(t, dir)
			} else {
				assertOnly(t, dir, "out.bin")
				if b, _ := os.ReadFile(dest); string(b) != tc.dest {
					t.Errorf("the user's file holds %q, want %q", b, tc.dest)
				}
			}
			if _, err := c.Download(context.Background(), "t:y", dest, DownloadOptions{}); err != nil {
				t.Fatalf("matching checksum: %v", err)
			}
		})
	}
}

func TestDownloadCanceledLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h := &fakeHandler{data: map[string]string{"x": "data"}}
	c := newClient(h)
	c.Registry = schemes.NewRegistry()
	c.Registry.Register(schemes.Scheme{Name: "t", Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil },
		Handler: ctxHandler{h}})
	_, err := c.Download(ctx, "t:x", filepath.Join(dir, "o"), DownloadOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	assertOnly(t, dir)
}

// ctxHandler fails as a well-behaved handler does when ctx is done.
type ctxHandler struct{ *fakeHandler }

func (h ctxHandler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, &schemes.Error{Scheme: "t", Kind: schemes.KindCanceled, Err: err}
	}
	return h.fakeHandler.Fetch(ctx, req)
}

func TestUnsupportedSchemeAndExplain(t *testing.T) {
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "p", Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	h := &fakeHandler{}
	r.Register(schemes.Scheme{Name: "t", Handler: h, Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	c := &Client{Registry: r}
	if _, err := c.Get(context.Background(), "p:x"); schemes.KindOf(err) != schemes.KindUnsupported {
		t.Errorf("parse-only scheme: %v", err)
	}
	if _, err := c.Get(context.Background(), "zz:x"); schemes.KindOf(err) != schemes.KindUnsupported {
		t.Errorf("unknown scheme: %v", err)
	}
	plan, err := c.Explain("t:abc")
	if err != nil || len(plan) != 1 || plan[0] != "GET abc" || h.fetches != 0 {
		t.Errorf("explain = %q, %v (fetches %d)", plan, err, h.fetches)
	}
}

// handsToReadFrom is a body whose WriteTo needs the destination's ReadFrom.
type handsToReadFrom struct{ io.Reader }

func (h handsToReadFrom) WriteTo(w io.Writer) (int64, error) {
	rf, ok := w.(io.ReaderFrom)
	if !ok {
		return 0, errors.New("the destination hides its ReadFrom")
	}
	return rf.ReadFrom(struct{ io.Reader }{h.Reader})
}

func TestProgressReportsEveryByte(t *testing.T) {
	for _, viaReadFrom := range []bool{false, true} {
		dir := t.TempDir()
		data := strings.Repeat("z", 100000)
		h := &fakeHandler{data: map[string]string{"x": data}, viaReadFrom: viaReadFrom}
		var last, total int64
		_, err := newClient(h).Download(context.Background(), "t:x", filepath.Join(dir, "o"), DownloadOptions{
			Progress: func(d, t int64) { last, total = d, t },
		})
		if err != nil || last != 100000 || total != 100000 {
			t.Fatalf("viaReadFrom %v: progress %d/%d err %v", viaReadFrom, last, total, err)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "o")); string(got) != data {
			t.Errorf("viaReadFrom %v: file has %d bytes", viaReadFrom, len(got))
		}
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Fatalf("directory holds %q, want %q", got, names)
	}
}

func TestRedirectToLocalFileRefused(t *testing.T) {
	h := &fakeHandler{redirects: map[string]string{"a": "file:///etc/passwd"}}
	c := newClient(h)
	c.Registry.Register(schemes.Scheme{Name: "file", Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }, Handler: h,
		Caps: schemes.Retrieves | schemes.Local})
	_, err := c.Get(context.Background(), "t:a")
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "file:///etc/passwd") {
		t.Fatalf("err = %v, want a safety refusal", err)
	}
}

func TestPartialFileCarriesResumeRecord(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "out.bin")
	mod := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	h := &modHandler{fakeHandler: &fakeHandler{data: map[string]string{"x": "0123456789"}, cutAfter: 4}, mod: mod}
	c := newClient(nil)
	c.Registry = schemes.NewRegistry()
	c.Registry.Register(schemes.Scheme{Name: "t", Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }, Handler: h})
	if _, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true}); err == nil {
		t.Fatal("cut transfer succeeded")
	}
	f, err := os.Open(dest + PartSuffix)
	if err != nil {
		t.Fatal(err)
	}
	rec := readRecord(f)
	f.Close()
	if rec == nil {
		t.Fatal("the partial copy has no resume record (does this file system keep user.* extended attributes?)")
	}
	if !rec.ModTime.Equal(mod) || rec.Size != 10 || rec.ETag != "W/x" {
		t.Fatalf("record %+v, want the server's time, size and ETag", rec)
	}
	if _, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true}); err != nil {
		t.Fatal(err)
	}
	got := h.partials[len(h.partials)-1]
	if got.Record == nil || !got.Record.ModTime.Equal(mod) || got.Record.ETag != "W/x" || got.ModTime.IsZero() {
		t.Fatalf("resume request carried %+v, want the record of the partial copy", got)
	}
}

// modHandler reports a modification time and ETag and records the
// Partial each request carries.
type modHandler struct {
	*fakeHandler
	mod      time.Time
	partials []schemes.Partial
}

func (h *modHandler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.partials = append(h.partials, req.Partial)
	r, err := h.fakeHandler.Fetch(ctx, req)
	if r != nil {
		r.ModTime, r.ETag = h.mod, "W/x"
	}
	return r, err
}

func TestDownloadedFileHonoursUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dest := filepath.Join(t.TempDir(), "out.txt")
	h := &fakeHandler{data: map[string]string{"x": "hi"}}
	if _, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dest); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v (%v), want -rw-r--r-- from umask 022", st.Mode(), err)
	}
}

// TestDownloadRetriesInOneLayer: --retry N is N+1 attempts for a
// download as for a Get, not (N+1)² (a retrying Get inside a retrying
// download made 9 attempts of --retry 2).
func TestDownloadRetriesInOneLayer(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"x": "ok"}, failFirst: 100}
	c := newClient(h)
	c.Retries = 2
	_, err := c.Download(context.Background(), "t:x", filepath.Join(t.TempDir(), "x"), DownloadOptions{})
	if schemes.KindOf(err) != schemes.KindConnect || h.fetches != 3 {
		t.Fatalf("%d attempts (err %v), want 3", h.fetches, err)
	}
	h.failFirst, h.fetches = 2, 0
	if _, err := c.Download(context.Background(), "t:x", filepath.Join(t.TempDir(), "x"), DownloadOptions{}); err != nil || h.fetches != 3 {
		t.Fatalf("%d attempts (err %v), want 3, the last one whole", h.fetches, err)
	}
}
