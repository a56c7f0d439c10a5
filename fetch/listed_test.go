package fetch

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestDownloadListed: what a listing said of a resource (a mirror's walk)
// checks its size when the server announces none, and gives the file its
// time with RemoteTime — unless the data is not the version listed.
func TestDownloadListed(t *testing.T) {
	listedTime := time.Date(2020, 2, 2, 10, 5, 0, 0, time.UTC)
	serverTime := time.Date(2021, 3, 3, 11, 6, 7, 0, time.UTC)
	for _, tc := range []struct {
		name       string
		listedSize int64
		noSize     bool      // the server announces no size
		mod        time.Time // the server's time with the data
		wantErr    string
		wantTime   time.Time // zero: the time of writing
	}{
		{name: "no size announced, listed size matches", listedSize: 10, noSize: true, wantTime: listedTime},
		{name: "no size announced, fewer bytes than listed", listedSize: 11, noSize: true, wantErr: "truncated: got 10 of 11"},
		{name: "no size announced, more bytes than listed", listedSize: 9, noSize: true, wantErr: "more than the 9"},
		{name: "server size wins over a stale listing; no listed time then", listedSize: 7},
		{name: "server's own time wins", listedSize: 10, mod: serverTime, wantTime: serverTime},
		{name: "listed size unknown", listedSize: -1, noSize: true, wantTime: listedTime},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dest := filepath.Join(t.TempDir(), "f")
			h := &fakeHandler{data: map[string]string{"x": "0123456789"}, noSize: tc.noSize, mod: tc.mod}
			e := &schemes.Entry{Name: "x", Kind: schemes.EntryFile, Size: tc.listedSize, ModTime: listedTime, Precision: time.Minute}
			start := time.Now().Add(-time.Second)
			c := newClient(h)
			req, err := c.NewRequest(MethodGet, "t:x")
			if err != nil {
				t.Fatal(err)
			}
			req.Listed = e
			_, err = c.DownloadRequest(context.Background(), req, dest, DownloadOptions{RemoteTime: true})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				if _, serr := os.Stat(dest); serr == nil {
					t.Fatal("NAME exists after a failed check")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(dest)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantTime.IsZero() {
				if st.ModTime().Before(start) {
					t.Errorf("mtime %v, want the time of writing", st.ModTime())
				}
			} else if !st.ModTime().Equal(tc.wantTime) {
				t.Errorf("mtime %v, want %v", st.ModTime(), tc.wantTime)
			}
		})
	}
}

// TestDownloadWorkSuffix: the work file takes the suffix asked for, kept
// after a failure under that name; a suffix that could leave the
// directory is refused.
func TestDownloadWorkSuffix(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "f")
	h := &fakeHandler{data: map[string]string{"x": "0123456789"}, cutAfter: 4}
	_, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{WorkSuffix: ".w-part"})
	if err == nil {
		t.Fatal("a cut transfer succeeded")
	}
	if got, _ := os.ReadFile(dest + ".w-part"); string(got) != "0123" {
		t.Fatalf("work file holds %q, want the 4 bytes that arrived", got)
	}
	if _, err := os.Stat(dest + PartSuffix); err == nil {
		t.Fatal("NAME.part was made too")
	}
	if _, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{WorkSuffix: ".w-part", Resume: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(dest); string(got) != "0123456789" {
		t.Fatalf("NAME holds %q", got)
	}
	for _, bad := range []string{"part", "./../x", "/x"} {
		_, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{WorkSuffix: bad})
		if schemes.KindOf(err) != schemes.KindUsage {
			t.Errorf("suffix %q: err %v, want KindUsage", bad, err)
		}
	}
}

// TestDownloadResumePartOnly: with ResumePartOnly an existing NAME is a
// whole older copy, never continued in place: the new copy replaces it.
func TestDownloadResumePartOnly(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "f")
	os.WriteFile(dest, []byte("01234"), 0o644)
	old := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) // newer than the remote: -C - alone would append
	os.Chtimes(dest, old, old)
	h := &fakeHandler{data: map[string]string{"x": "0123456789"}}
	if _, err := newClient(h).Download(context.Background(), "t:x", dest, DownloadOptions{Resume: true, ResumePartOnly: true}); err != nil {
		t.Fatal(err)
	}
	if h.offsets[0] != 0 {
		t.Fatalf("asked for byte %d, want the whole resource", h.offsets[0])
	}
	if got, _ := os.ReadFile(dest); string(got) != "0123456789" {
		t.Fatalf("NAME holds %q", got)
	}
}

// notModifiedHandler answers every request with IfModifiedSince set as
// a server whose resource did not change, and others with data.
type notModifiedHandler struct{ fakeHandler }

func (h *notModifiedHandler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	if !req.IfModifiedSince.IsZero() {
		return &schemes.Response{NotModified: true, Body: io.NopCloser(strings.NewReader("")), Size: -1}, nil
	}
	return h.fakeHandler.Fetch(ctx, req)
}

// TestDownloadNotModified: a server that says the resource did not change
// since IfModifiedSince leaves NAME as it was, and no work file.
func TestDownloadNotModified(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "f")
	os.WriteFile(dest, []byte("old copy"), 0o644)
	h := &notModifiedHandler{fakeHandler{data: map[string]string{"x": "new copy"}}}
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "t", Handler: h, Caps: schemes.Retrieves,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	c := &Client{Registry: r}
	req, err := c.NewRequest("", "t:x")
	if err != nil {
		t.Fatal(err)
	}
	req.IfModifiedSince = time.Now()
	res, err := c.DownloadRequest(context.Background(), req, dest, DownloadOptions{})
	if err != nil || !res.NotModified {
		t.Fatalf("err %v, result %+v", err, res)
	}
	if got, _ := os.ReadFile(dest); string(got) != "old copy" {
		t.Fatalf("NAME holds %q", got)
	}
	if _, err := os.Stat(dest + PartSuffix); err == nil {
		t.Fatal("a work file was left")
	}
	if res, err := c.Download(context.Background(), "t:x", dest, DownloadOptions{}); err != nil || res.NotModified {
		t.Fatalf("without IfModifiedSince: %v, %+v", err, res)
	}
	if got, _ := os.ReadFile(dest); string(got) != "new copy" {
		t.Fatalf("NAME holds %q", got)
	}
}
