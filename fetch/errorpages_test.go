package fetch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// pageServer answers /busy with 503 and the page "busy N" (N the
// attempt), /flaky with 503 twice and then "ok", /gone with 404 and
// "gone"; it counts the requests.
func pageServer(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1)
		switch {
		case r.URL.Path == "/busy", r.URL.Path == "/flaky" && k <= 2:
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, "busy %d", k)
		case r.URL.Path == "/gone":
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "gone")
		default:
			fmt.Fprint(w, "ok")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// pagePaths carry out a Request with ErrorPages (or without) the three
// ways: Do, Download and Stream; each returns what the caller got, the
// Failure it was told of, and the heads Answered saw before any byte.
var pagePaths = []struct {
	name string
	run  func(t *testing.T, c *Client, req *Request) (got string, failure, err error)
}{
	{"Do", func(t *testing.T, c *Client, req *Request) (string, error, error) {
		resp, err := c.Do(context.Background(), req)
		if err != nil {
			return "", nil, err
		}
		defer resp.Close()
		var b bytes.Buffer
		_, err = b.ReadFrom(resp.Body)
		return b.String(), resp.Failure, err
	}},
	{"Download", func(t *testing.T, c *Client, req *Request) (string, error, error) {
		dest := filepath.Join(t.TempDir(), "f")
		res, err := c.DownloadRequest(context.Background(), req, dest, DownloadOptions{})
		got, _ := os.ReadFile(dest)
		var failure error
		if res != nil {
			failure = res.Failure
		}
		return string(got), failure, err
	}},
	{"Stream", func(t *testing.T, c *Client, req *Request) (string, error, error) {
		var out bytes.Buffer
		resp, _, err := c.Stream(context.Background(), req, &out, nil)
		var failure error
		if resp != nil {
			failure = resp.Failure
		}
		return out.String(), failure, err
	}},
}

// TestErrorPagesRetried: with ErrorPages an error status's page is the
// resource, on every path: a passing status (503) is asked for again
// while retries are left and the last try's page is kept, whole and
// once; one that recovers gives the resource; a 404 is not asked again.
// Answered sees every answer, before any of its body. Without
// ErrorPages the status fails, nothing written.
func TestErrorPagesRetried(t *testing.T) {
	for _, p := range pagePaths {
		for _, tc := range []struct {
			path     string
			pages    bool
			got      string
			kind     schemes.Kind // of the Failure (pages) or the error
			attempts int32
		}{
			{"/busy", true, "busy 3", schemes.KindBusy, 3},
			{"/flaky", true, "ok", schemes.KindOther, 3},
			{"/gone", true, "gone", schemes.KindNotFound, 1},
			{"/busy", false, "", schemes.KindBusy, 3},
			{"/gone", false, "", schemes.KindNotFound, 1},
		} {
			t.Run(fmt.Sprintf("%s%s/%v", p.name, tc.path, tc.pages), func(t *testing.T) {
				srv, n := pageServer(t)
				c, _ := retryClient(2)
				loc, err := c.Parse(srv.URL + tc.path)
				if err != nil {
					t.Fatal(err)
				}
				var heads []string
				req := &Request{URL: loc, ErrorPages: tc.pages, Answered: func(r *Response) {
					heads = append(heads, strings.SplitN(r.Head, "\r\n", 2)[0])
				}}
				got, failure, err := p.run(t, c, req)
				if !tc.pages {
					failure = err
				} else if err != nil {
					t.Fatalf("err %v", err)
				}
				if got != tc.got || n.Load() != tc.attempts {
					t.Errorf("got %q after %d attempts, want %q after %d", got, n.Load(), tc.got, tc.attempts)
				}
				if (tc.kind == schemes.KindOther) != (failure == nil) || failure != nil && schemes.KindOf(failure) != tc.kind {
					t.Errorf("failure %v, want kind %v", failure, tc.kind)
				}
				if failure != nil && !strings.Contains(failure.Error(), srv.URL+tc.path+": ") {
					t.Errorf("failure %q does not name the URL", failure)
				}
				if tc.pages && len(heads) != int(tc.attempts) || len(heads) > 0 && !strings.HasPrefix(heads[0], "HTTP/1.1 ") {
					t.Errorf("Answered saw %q", heads)
				}
			})
		}
	}
}

// TestAnsweredBeforeTheBody: Stream tells Answered of the answer before
// the first byte of its body reaches the writer (curl -D - writes the
// head before the body on one stdout).
func TestAnsweredBeforeTheBody(t *testing.T) {
	srv, _ := pageServer(t)
	c, _ := retryClient(0)
	loc, err := c.Parse(srv.URL + "/f")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	req := &Request{URL: loc, Answered: func(r *Response) { out.WriteString(r.Head) }}
	if _, _, err := c.Stream(context.Background(), req, &out, nil); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.HasPrefix(s, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(s, "\r\n\r\nok") {
		t.Errorf("stream %q", s)
	}
}
