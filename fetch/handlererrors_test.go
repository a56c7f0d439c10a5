package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

const secret = "hunter2" // a password no error may show

// lineServer is a 127.0.0.1 server of a line protocol: it sends greeting
// (none when empty), then answers each line it reads with reply(line),
// and closes when reply returns "". A nil reply never answers: a silent
// server.
func lineServer(t *testing.T, greeting string, reply func(line string) string) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if reply == nil {
					io.Copy(io.Discard, c) // until the client gives up
					return
				}
				io.WriteString(c, greeting)
				r := bufio.NewReader(c)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					out := reply(strings.TrimRight(line, "\r\n"))
					if out == "" {
						return
					}
					io.WriteString(c, out)
				}
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestHandlerErrorsNameTheURLOnce: a handler's error reaches the caller
// naming the URL exactly once, redacted — fetch names it, handlers do
// not — for errors of the request (a server's refusal, a reply, a safety
// rule, a local file) on every scheme.
func TestHandlerErrorsNameTheURLOnce(t *testing.T) {
	web := httptest.NewServer(http.NotFoundHandler())
	defer web.Close()
	ftpPort := lineServer(t, "220 ready\r\n", func(line string) string {
		switch {
		case strings.HasPrefix(line, "USER "):
			return "331 password please\r\n"
		case strings.HasPrefix(line, "PASS "):
			return "530 Login incorrect for " + strings.TrimPrefix(line, "PASS ") + "\r\n" // echoes the password
		}
		return "500 what\r\n"
	})
	nntpPort := lineServer(t, "200 news ready\r\n", func(line string) string {
		switch {
		case strings.HasPrefix(line, "AUTHINFO USER"):
			return "381 password please\r\n"
		case strings.HasPrefix(line, "AUTHINFO PASS"):
			return "281 ok\r\n"
		case strings.HasPrefix(line, "QUIT"):
			return ""
		}
		return "411 No such group\r\n"
	})
	host := strings.TrimPrefix(web.URL, "http://")
	tests := []struct {
		raw, want string // the URL given, and the URL the error must name
		kind      schemes.Kind
	}{
		{"http://u:" + secret + "@" + host + "/missing", "http://u:****@" + host + "/missing", schemes.KindNotFound},
		{fmt.Sprintf("ftp://u:%s@127.0.0.1:%d/f", secret, ftpPort), fmt.Sprintf("ftp://u:****@127.0.0.1:%d/f", ftpPort), schemes.KindPermission},
		{fmt.Sprintf("nntp://u:%s@127.0.0.1:%d/no.such", secret, nntpPort), fmt.Sprintf("nntp://u:****@127.0.0.1:%d/no.such", nntpPort), schemes.KindNotFound},
		{"gopher://127.0.0.1:1/0a%0Ab", "gopher://127.0.0.1:1/0a%0Ab", schemes.KindSafety},
		{"file:///nonexistent/" + secret, "file:///nonexistent/" + secret, schemes.KindNotFound},
	}
	c := &Client{Registry: defaultRegistry(), Dialer: &transport.Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second}}
	defer c.CloseIdleConnections()
	for _, tt := range tests {
		_, err := c.Get(context.Background(), tt.raw)
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != tt.kind || se.URL != tt.want {
			t.Errorf("%s: %v (%#v), want %v naming %s", tt.raw, err, se, tt.kind, tt.want)
			continue
		}
		if n := strings.Count(err.Error(), tt.want); n != 1 {
			t.Errorf("%s: %q names the URL %d times, want once", tt.raw, err, n)
		}
		if !strings.HasPrefix(tt.raw, "file:") && strings.Contains(err.Error(), secret) {
			t.Errorf("%s: %q shows the password", tt.raw, err)
		}
	}
}

// failingHandler serves a body and a listing that fail the way a
// handler's do mid-stream: with a protocol error that names no URL.
type failingHandler struct{}

var errCut = schemes.IOError("t", "read", io.ErrUnexpectedEOF)

func (failingHandler) Fetch(context.Context, *schemes.Request) (*schemes.Response, error) {
	body := io.MultiReader(strings.NewReader("01234"), iotestErr{})
	return &schemes.Response{Body: io.NopCloser(body), Size: 10}, nil
}

func (failingHandler) List(context.Context, *schemes.Request) (*schemes.Response, error) {
	return &schemes.Response{Listing: &failingListing{}}, nil
}

func (failingHandler) Explain(*schemes.Request) ([]string, error) { return nil, nil }

// iotestErr fails every Read with a fresh copy of errCut.
type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { c := *errCut.(*schemes.Error); return 0, &c }

type failingListing struct{ sent bool }

func (l *failingListing) Next() (schemes.Entry, error) {
	if !l.sent {
		l.sent = true
		return schemes.Entry{Name: "a", Kind: schemes.EntryFile}, nil
	}
	c := *errCut.(*schemes.Error)
	return schemes.Entry{}, &c
}

func (l *failingListing) Close() error { return nil }

// TestStreamErrorsNameTheURLOnce: the errors a handler's Body and Listing
// return after the request did — read by the caller of Get or List, or
// copied by Download and Stream — name the URL once, redacted, as the
// request's own errors do.
func TestStreamErrorsNameTheURLOnce(t *testing.T) {
	c := &Client{Registry: schemes.NewRegistry()}
	policyScheme(c, "t", schemes.Retrieves|schemes.Lists, failingHandler{})
	raw := "t://u:" + secret + "@h/x"
	want := "t://u:****@h/x"
	get := func(read func(body io.Reader) error) func() error {
		return func() error {
			r, err := c.Get(context.Background(), raw)
			if err != nil {
				return err
			}
			defer r.Close()
			return read(r.Body)
		}
	}
	paths := map[string]func() error{
		"Get": get(func(b io.Reader) error { _, err := io.ReadAll(b); return err }),
		// io.Copy goes through the Body's WriteTo.
		"Get, copied": get(func(b io.Reader) error { _, err := io.Copy(io.Discard, b); return err }),
		"List": func() error {
			r, err := c.List(context.Background(), raw)
			if err != nil {
				return err
			}
			defer r.Close()
			for _, err := range schemes.Entries(r.Listing) {
				if err != nil {
					return err
				}
			}
			return nil
		},
		"Download": func() error {
			_, err := c.Download(context.Background(), raw, filepath.Join(t.TempDir(), "x"), DownloadOptions{})
			return err
		},
		"Stream": func() error {
			loc, _ := c.Parse(raw)
			_, _, err := c.Stream(context.Background(), &Request{URL: loc}, &bytes.Buffer{}, nil)
			return err
		},
	}
	for name, run := range paths {
		err := run()
		var se *schemes.Error
		if !errors.As(err, &se) || se.URL != want || se.Kind != schemes.KindConnect {
			t.Errorf("%s: %v (%#v), want the cut naming %s", name, err, se, want)
			continue
		}
		if n := strings.Count(err.Error(), want); n != 1 || strings.Contains(err.Error(), secret) {
			t.Errorf("%s: %q: want the redacted URL once (%d) and no password", name, err, n)
		}
	}
}

// TestContextErrorsSameForEveryScheme: the same end of a request gives the
// same kind and retry verdict whichever handler meets it (one mapping,
// schemes.ContextKind), here while each waits on a silent server: the
// caller's cancel and deadline are final, the Dialer's idle timeout is
// worth another try, and so is an attempt that MaxTime cut short (fetch's
// decision: -m bounds each attempt).
func TestContextErrorsSameForEveryScheme(t *testing.T) {
	port := lineServer(t, "", nil)
	urls := []string{
		fmt.Sprintf("http://127.0.0.1:%d/x", port),
		fmt.Sprintf("ftp://127.0.0.1:%d/x", port),
		fmt.Sprintf("gopher://127.0.0.1:%d/0x", port),
		fmt.Sprintf("nntp://127.0.0.1:%d/g", port),
	}
	tests := []struct {
		name      string
		idle      time.Duration // the Dialer's IdleTimeout
		maxTime   time.Duration // the Client's MaxTime
		ctx       func() (context.Context, context.CancelFunc)
		kind      schemes.Kind
		retryable bool
	}{
		{"caller's cancel", time.Minute, 0, func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			return ctx, cancel
		}, schemes.KindCanceled, false},
		{"caller's deadline", time.Minute, 0, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 100*time.Millisecond)
		}, schemes.KindTimeout, false},
		{"idle timeout", 100 * time.Millisecond, 0, func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}, schemes.KindTimeout, true},
		{"MaxTime, per attempt", time.Minute, 100 * time.Millisecond, func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}, schemes.KindTimeout, true},
	}
	for _, tt := range tests {
		for _, raw := range urls {
			c := &Client{Registry: defaultRegistry(), MaxTime: tt.maxTime,
				Dialer: &transport.Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: tt.idle}}
			ctx, cancel := tt.ctx()
			_, err := c.Get(ctx, raw)
			cancel()
			c.CloseIdleConnections()
			var se *schemes.Error
			if !errors.As(err, &se) || se.Kind != tt.kind || se.Retryable != tt.retryable {
				t.Errorf("%s, %s: %v (%+v), want %v, retryable %v", tt.name, raw, err, se, tt.kind, tt.retryable)
				continue
			}
			if se.URL != raw || strings.Count(err.Error(), raw) != 1 {
				t.Errorf("%s, %s: %q does not name the URL once", tt.name, raw, err)
			}
		}
	}
}
