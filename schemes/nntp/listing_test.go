package nntp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// within runs f and fails the test if it takes longer than a few seconds:
// a listing that does not stream would wait for the server forever.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still waiting after 5s (the listing does not stream)", what)
	}
}

// stallingOverview serves group g.test (articles 1-3) whose overview
// stops after article 1 at mark ("<wait>" or "<hold>").
func stallingOverview(t *testing.T, mark string) *fakeServer {
	return newINNFake(t, map[string]string{
		"GROUP g.test": "211 3 1 3 g.test\r\n",
		"OVER 1-3": "224 overview\r\n1\tOne\ta@b\tSat, 21 Nov 2026 05:37:35 +0000\t<1@x>\t\t10\t1\r\n" + mark +
			"2\tTwo\ta@b\t\t<2@x>\t\t20\t2\r\n3\tThree\ta@b\t\t<3@x>\t\t30\t3\r\n.\r\n",
		"LIST ACTIVE":   "215 list\r\na.one 2 1 y\r\n" + mark + "b.two 5 3 n\r\n.\r\n",
		"ARTICLE <a@x>": "220 0 <a@x>\r\nbody\r\n.\r\n",
	})
}

// TestListingsStream: the first entries of an overview and of the group
// list are returned while the server has not sent the rest; a listing
// read to its end gives its connection back to the pool.
func TestListingsStream(t *testing.T) {
	for _, tc := range []struct {
		raw, first string
		rest       []string
	}{
		{"news:g.test", "1", []string{"2", "3"}},
		{"news:*", "a.one", []string{"b.two"}},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			f := stallingOverview(t, "<wait>")
			h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
			defer closeIdle(h)
			var resp *schemes.Response
			var err error
			within(t, "Fetch", func() {
				resp, err = h.Fetch(context.Background(), &schemes.Request{URL: locate(t, tc.raw), Dialer: fakeDialer{}, Conns: conns(h)})
			})
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Close()
			within(t, "Next", func() {
				e, err := resp.Listing.Next()
				if err != nil || e.Name != tc.first {
					t.Errorf("first entry %+v %v, want %s", e, err, tc.first)
				}
			})
			f.release()
			rest, err := schemes.ReadAll(resp.Listing)
			if err != nil || len(rest) != len(tc.rest) {
				t.Fatalf("rest %+v %v", rest, err)
			}
			for i, e := range rest {
				if e.Name != tc.rest[i] {
					t.Errorf("entry %d: %q, want %q", i+1, e.Name, tc.rest[i])
				}
			}
			if _, _, err := fetchAll(t, h, "news:a@x", nil, nil); err != nil {
				t.Fatal(err)
			}
			if n := f.connCount(); n != 1 {
				t.Errorf("%d connections, want 1: the listing's connection is reused", n)
			}
		})
	}
}

// TestListingEarlyClose: closing a listing before its end closes its
// connection at once (its state is mid-reply), and the next request
// connects again.
func TestListingEarlyClose(t *testing.T) {
	f := stallingOverview(t, "<hold>")
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	defer closeIdle(h)
	resp, err := h.Fetch(context.Background(), &schemes.Request{URL: locate(t, "news:g.test"), Dialer: fakeDialer{}, Conns: conns(h)})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := resp.Listing.Next(); err != nil || e.Name != "1" {
		t.Fatalf("%+v %v", e, err)
	}
	within(t, "Close", func() {
		if err := resp.Close(); err != nil {
			t.Error(err)
		}
	})
	select {
	case <-f.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not see the connection close")
	}
	if _, err := resp.Listing.Next(); err == nil {
		t.Error("Next after Close succeeded")
	}
	if b, _, err := fetchAll(t, h, "news:a@x", nil, nil); err != nil || string(b) != "body\n" {
		t.Errorf("after an early Close: %q %v", b, err)
	}
	if n := f.connCount(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}

// TestCanceledListingFails: once the request's context is canceled, Next
// fails even though the whole overview is buffered.
func TestCanceledListingFails(t *testing.T) {
	f := overviewServer(t, capsINN, true, false)
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	defer closeIdle(h)
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := h.Fetch(ctx, &schemes.Request{URL: locate(t, "news:g.test"), Dialer: fakeDialer{}, Conns: conns(h)})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	cancel()
	if _, err := schemes.ReadAll(resp.Listing); !errors.Is(err, context.Canceled) || schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("err %v (kind %v), want a cancellation", err, schemes.KindOf(err))
	}
}

// overviewAuthServer is authServer with an overview of local.test and a
// group list.
func overviewAuthServer(t *testing.T) *fakeServer {
	return authFake(t, func(cmd string) string {
		switch {
		case cmd == "GROUP local.test":
			return "211 2 1 2 local.test\r\n"
		case cmd == "OVER 1-2":
			return "224 ok\r\n1\tOne\ta@b\t\t<1@x>\t\t5\t1\r\n2\tTwo\ta@b\t\t<2@x>\t\t5\t1\r\n.\r\n"
		case cmd == "ARTICLE 1", cmd == "ARTICLE 2":
			return "220 " + cmd[8:] + " <" + cmd[8:] + "@x>\r\nbody " + cmd[8:] + "\r\n.\r\n"
		case cmd == "LIST ACTIVE":
			return "215 list\r\nlocal.test 2 1 y\r\n.\r\n"
		}
		return ""
	})
}

// TestLocatorsFetchTheSameItem: every entry's Locator fetches what its
// URL typed by hand fetches, keeps the listed URL's password in String
// and hides it in Redacted; a news: listing's Locators name the server
// that was asked.
func TestLocatorsFetchTheSameItem(t *testing.T) {
	f := overviewAuthServer(t)
	host := fmt.Sprintf("127.0.0.1:%d", f.port())
	creds := func(string, string, int) (string, string, bool) { return "reader", "s3cret", true }
	h := &Handler{Server: host}
	defer closeIdle(h)
	for _, tc := range []struct {
		raw    string
		creds  schemes.Credentials
		want   []string // each entry's Locator by hand
		redact []string
	}{
		{"nntp://reader:s3cret@" + host + "/local.test", nil,
			[]string{"nntp://reader:s3cret@" + host + "/local.test/1", "nntp://reader:s3cret@" + host + "/local.test/2"},
			[]string{"nntp://reader:****@" + host + "/local.test/1", "nntp://reader:****@" + host + "/local.test/2"}},
		{"news:local.test", creds,
			[]string{"nntp://" + host + "/local.test/1", "nntp://" + host + "/local.test/2"}, nil},
		{"news://reader:s3cret@" + host + "/*", nil,
			[]string{"nntp://reader:s3cret@" + host + "/local.test"}, []string{"nntp://reader:****@" + host + "/local.test"}},
		{"news:*", creds, []string{"news:local.test"}, nil},
		// nntp://host/ is the server's groups, each on that server.
		{"nntp://reader:s3cret@" + host + "/", nil,
			[]string{"nntp://reader:s3cret@" + host + "/local.test"}, []string{"nntp://reader:****@" + host + "/local.test"}},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			_, entries, _, err := fetchEntries(t, h, tc.raw, nil, tc.creds)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != len(tc.want) {
				t.Fatalf("entries %+v", entries)
			}
			for i, e := range entries {
				if schemestest.LocatorString(e) != tc.want[i] {
					t.Errorf("entry %d: Locator %q, want %q", i, schemestest.LocatorString(e), tc.want[i])
					continue
				}
				if tc.redact != nil && e.Locator.Redacted() != tc.redact[i] {
					t.Errorf("entry %d: Redacted %q, want %q", i, e.Locator.Redacted(), tc.redact[i])
				}
				got, gotEntries, _, err := fetchLocator(t, h, e.Locator, nil, tc.creds)
				if err != nil {
					t.Fatalf("%s: %v", e.Locator.Redacted(), err)
				}
				want, wantEntries, _, err := fetchEntries(t, h, tc.want[i], nil, tc.creds)
				if err != nil {
					t.Fatalf("%s: %v", tc.want[i], err)
				}
				if string(got) != string(want) || len(gotEntries) != len(wantEntries) {
					t.Errorf("%s: %q %+v, by hand %q %+v", e.Locator.Redacted(), got, gotEntries, want, wantEntries)
				}
			}
		})
	}
}

// TestTraceScopes: each new connection traces into a scope of its own,
// the Dialer's notes included; a pooled connection keeps its scope.
func TestTraceScopes(t *testing.T) {
	f := newINNFake(t, map[string]string{"ARTICLE <a@x>": "220 0 <a@x>\r\nbody\r\n.\r\n"})
	var buf bytes.Buffer
	tr := transport.NewTrace(&buf)
	h := &Handler{Server: fmt.Sprintf("127.0.0.1:%d", f.port())}
	defer closeIdle(h)
	for range 2 { // the second reuses the first's connection
		if _, _, err := fetchAll(t, h, "news:a@x", tr, nil); err != nil {
			t.Fatal(err)
		}
	}
	if out := buf.String(); !strings.Contains(out, "* Connecting to 127.0.0.1") || !strings.Contains(out, "* reusing connection") ||
		strings.Contains(out, "[2]") {
		t.Errorf("one connection, one scope:\n%s", out)
	}
	buf.Reset()
	h2 := &Handler{Server: h.Server}
	noPool(h2)
	if _, _, err := fetchAll(t, h2, "news:a@x", tr, nil); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "[2] * Connecting to 127.0.0.1") || !strings.Contains(out, "[2] > ARTICLE <a@x>") {
		t.Errorf("a second connection, a second scope:\n%s", out)
	}
}
