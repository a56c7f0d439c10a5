package gopher

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestMenuEnd: a menu is whole only when the protocol says it ended — a
// plain menu at its "." line, a Gopher+ reply where its header says.
// Otherwise the listing gives the entries it had and then fails, so a
// mirror deletes nothing on its word.
func TestMenuEnd(t *testing.T) {
	const (
		a = "0a\t/a\th\t70\r\n"
		b = "1b\t/b/\th\t70\r\n"
	)
	for _, tt := range []struct {
		name  string
		url   string // path of the gopher URL asked for
		reply string
		names []string // the entries' names, in order
		kind  schemes.Kind
		// want is what the listing ends with: "" for a complete one, else
		// text the error holds.
		want string
	}{
		{name: "plain with dot", url: "/1/", reply: a + b + ".\r\n", names: []string{"a", "b"}},
		{name: "plain with dot and LF line ends", url: "/1/", reply: "0a\t/a\th\t70\n.\n", names: []string{"a"}},
		{name: "plain without dot", url: "/1/", reply: a + b, names: []string{"a", "b"},
			kind: schemes.KindProtocol, want: `the menu ended without its "." line: it may be cut short`},
		{name: "plain cut mid-line", url: "/1/", reply: a + "1b\t/b", names: []string{"a", ""},
			kind: schemes.KindProtocol, want: `without its "." line`},
		{name: "plain empty reply", url: "/1/", reply: "",
			kind: schemes.KindProtocol, want: `without its "." line`},
		{name: "plain only info lines without dot", url: "/1/", reply: "iwelcome\t\tnull.host\t1\r\n", names: []string{""},
			kind: schemes.KindProtocol, want: `without its "." line`},
		{name: "plain search without dot", url: "/7/s%09word", reply: a,
			names: []string{"a"}, kind: schemes.KindProtocol, want: `without its "." line`},
		{name: "gopher+ until close", url: "/1/%09%09+", reply: "+-2\r\n" + a + b, names: []string{"a", "b"}},
		{name: "gopher+ dot-terminated", url: "/1/%09%09+", reply: "+-1\r\n" + a + ".\r\n", names: []string{"a"}},
		{name: "gopher+ dot-terminated, cut", url: "/1/%09%09+", reply: "+-1\r\n" + a + b, names: []string{"a", "b"},
			kind: schemes.KindConnect, want: `"." line`},
		{name: "gopher+ of known length", url: "/1/%09%09+", reply: "+" + strconv.Itoa(len(a+b)) + "\r\n" + a + b,
			names: []string{"a", "b"}},
		{name: "gopher+ of known length, with dot", url: "/1/%09%09+", reply: "+" + strconv.Itoa(len(a+".\r\n")) + "\r\n" + a + ".\r\n",
			names: []string{"a"}},
		{name: "gopher+ of known length, short", url: "/1/%09%09+", reply: "+" + strconv.Itoa(len(a+b)+10) + "\r\n" + a + b,
			names: []string{"a", "b"}, kind: schemes.KindConnect, want: "bytes missing"},
		{name: "gopher+ of known length, dot before the end and short", url: "/1/%09%09+",
			reply: "+" + strconv.Itoa(len(a+".\r\n")+10) + "\r\n" + a + ".\r\n", names: []string{"a"}, kind: schemes.KindConnect, want: "bytes missing"},
		{name: "gopher+ asked, plain reply without dot", url: "/1/%09%09+", reply: a, names: []string{"a"},
			kind: schemes.KindProtocol, want: `without its "." line`},
		{name: "attributes of known length, short", url: "/1/%09%09$", reply: "+100\r\n+INFO: " + a,
			names: []string{""}, kind: schemes.KindConnect, want: "bytes missing"},
		{name: "attributes of known length, dot before a short end", url: "/1/%09%09$", reply: "+100\r\n+INFO: " + a + ".\r\n",
			names: []string{""}, kind: schemes.KindConnect, want: "bytes missing"},
		{name: "attributes dot-terminated", url: "/1/%09%09$", reply: "+-1\r\n+INFO: " + a + ".\r\n", names: []string{""}},
		{name: "attributes dot-terminated, cut", url: "/1/%09%09$", reply: "+-1\r\n+INFO: " + a,
			names: []string{""}, kind: schemes.KindConnect, want: `"." line`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newFakeServer(t, tt.reply)
			resp, err := (&Handler{}).List(context.Background(), &schemes.Request{URL: mustParse(t, s.url(tt.url)), Dialer: &transport.Dialer{}})
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Listing.Close()
			var names []string
			for {
				e, err := resp.Listing.Next()
				if errors.Is(err, io.EOF) {
					if tt.want != "" {
						t.Errorf("the listing ended complete, want an error with %q", tt.want)
					}
					break
				}
				if err != nil {
					var se *schemes.Error
					switch {
					case tt.want == "":
						t.Errorf("error %v, want a complete listing", err)
					case !errors.As(err, &se) || se.Kind != tt.kind || !strings.Contains(err.Error(), tt.want):
						t.Errorf("error %v (%#v), want kind %v with %q", err, se, tt.kind, tt.want)
					}
					if _, again := resp.Listing.Next(); again == nil || errors.Is(again, io.EOF) {
						t.Errorf("Next after the error: %v, want the error again", again)
					}
					break
				}
				names = append(names, e.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.names, ",") {
				t.Errorf("entries %q, want %q", names, tt.names)
			}
		})
	}
}

// TestMenuNotFoundWithoutDot: a reply of nothing but error lines is the
// server's "not found" (exit 3) whether or not a "." line follows:
// pygopherd sends none.
func TestMenuNotFoundWithoutDot(t *testing.T) {
	for _, reply := range []string{
		"3not here\t\terror.host\t1\r\n",
		"3not here\t\terror.host\t1\r\n.\r\n",
		"iinfo\t\tnull.host\t1\r\n3not here\t\terror.host\t1\r\n",
	} {
		s := newFakeServer(t, reply)
		_, err := (&Handler{}).List(context.Background(), &schemes.Request{URL: mustParse(t, s.url("/1/x")), Dialer: &transport.Dialer{}})
		var se *schemes.Error
		if !errors.As(err, &se) || se.Kind != schemes.KindNotFound || !strings.Contains(err.Error(), "not here") {
			t.Errorf("%q: %v, want not found", reply, err)
		}
	}
}

// TestMenuAskedAgain: a plain menu that ends at the server's close without
// its "." line is asked again the Gopher+ way; it is whole when that reply
// lists the same items under a header that says where they end (pygopherd's
// `+-2`, closed by the server), and goes on with the items the plain one
// lacked. Any other answer leaves it cut short, as before.
func TestMenuAskedAgain(t *testing.T) {
	const (
		a = "0a\t/a\th\t70\t+\r\n"
		b = "1b\t/b\th\t70\t+\r\n"
	)
	noEnd := `without its "." line`
	for _, tt := range []struct {
		name   string
		url    string
		routes map[string]string // reply by request line
		names  []string
		kind   schemes.Kind
		want   string // "" for a complete listing
		sent   []string
	}{
		{name: "pygopherd: +-2 closed", url: "/", routes: map[string]string{"\r\n": a + b, "\t+\r\n": "+-2\r\n" + a + b},
			names: []string{"a", "b"}, sent: []string{"\r\n", "\t+\r\n"}},
		{name: "+-1 with its dot", url: "/1/d", routes: map[string]string{"/d\r\n": a, "/d\t+\r\n": "+-1\r\n" + a + ".\r\n"},
			names: []string{"a"}, sent: []string{"/d\r\n", "/d\t+\r\n"}},
		{name: "+N", url: "/1/d", routes: map[string]string{"/d\r\n": a, "/d\t+\r\n": "+" + strconv.Itoa(len(a)) + "\r\n" + a},
			names: []string{"a"}, sent: []string{"/d\r\n", "/d\t+\r\n"}},
		{name: "search results", url: "/7/s%09w", routes: map[string]string{"/s\tw\r\n": a, "/s\tw\t+\r\n": "+-2\r\n" + a},
			names: []string{"a"}, sent: []string{"/s\tw\r\n", "/s\tw\t+\r\n"}},
		{name: "empty menu", url: "/1/e", routes: map[string]string{"/e\t+\r\n": "+-2\r\n"},
			sent: []string{"/e\r\n", "/e\t+\r\n"}},
		{name: "plain cut, gopher+ goes on", url: "/", routes: map[string]string{"\r\n": a, "\t+\r\n": "+-2\r\n" + a + b},
			names: []string{"a", "b"}, sent: []string{"\r\n", "\t+\r\n"}},
		{name: "+-1 without its dot", url: "/", routes: map[string]string{"\r\n": a, "\t+\r\n": "+-1\r\n" + a + b},
			names: []string{"a", "b"}, kind: schemes.KindConnect, want: `"." line`, sent: []string{"\r\n", "\t+\r\n"}},
		{name: "other items", url: "/", routes: map[string]string{"\r\n": a + b, "\t+\r\n": "+-2\r\n" + b + a},
			names: []string{"a", "b"}, kind: schemes.KindProtocol, want: noEnd, sent: []string{"\r\n", "\t+\r\n"}},
		{name: "fewer items", url: "/", routes: map[string]string{"\r\n": a + b, "\t+\r\n": "+-2\r\n" + a},
			names: []string{"a", "b"}, kind: schemes.KindProtocol, want: noEnd, sent: []string{"\r\n", "\t+\r\n"}},
		{name: "plain server", url: "/", routes: map[string]string{"\r\n": a, "\t+\r\n": a},
			names: []string{"a"}, kind: schemes.KindProtocol, want: noEnd, sent: []string{"\r\n", "\t+\r\n"}},
		{name: "gopher+ error", url: "/", routes: map[string]string{"\r\n": a, "\t+\r\n": "--2\r\n2 admin <a@b>\r\nbusy\r\n"},
			names: []string{"a"}, kind: schemes.KindProtocol, want: noEnd, sent: []string{"\r\n", "\t+\r\n"}},
		{name: "asked gopher+ already", url: "/1%09%09+", routes: map[string]string{"\t+\r\n": a},
			names: []string{"a"}, kind: schemes.KindProtocol, want: noEnd, sent: []string{"\t+\r\n"}},
		{name: "plain with its dot", url: "/", routes: map[string]string{"\r\n": a + ".\r\n"},
			names: []string{"a"}, sent: []string{"\r\n"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newRouteServer(t, tt.routes)
			names, err := listNames(t, s.url(tt.url))
			checkEnd(t, err, tt.kind, tt.want)
			if strings.Join(names, ",") != strings.Join(tt.names, ",") {
				t.Errorf("entries %q, want %q", names, tt.names)
			}
			if got := s.requests(); strings.Join(got, "|") != strings.Join(tt.sent, "|") {
				t.Errorf("sent %q, want %q", got, tt.sent)
			}
		})
	}
}

// TestMenuResetIsNoEnd: a connection reset is not the server's close — a
// +-2 menu reset before its end fails, and a plain menu reset is not asked
// again (the reset is the error).
func TestMenuResetIsNoEnd(t *testing.T) {
	for _, tt := range []struct{ url, reply string }{
		{"/1/%09%09+", "+-2\r\n0a\t/a\th\t70\t+\r\n"},
		{"/1/", "0a\t/a\th\t70\t+\r\n"},
	} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		accepted := make(chan int, 2)
		go func() {
			for n := 1; ; n++ {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				accepted <- n
				bufio.NewReader(c).ReadString('\n')
				io.WriteString(c, tt.reply)
				c.(*net.TCPConn).SetLinger(0) // close with a reset
				c.Close()
			}
		}()
		_, err = listNames(t, "gopher://"+ln.Addr().String()+tt.url)
		ln.Close()
		if schemes.KindOf(err) != schemes.KindConnect {
			t.Errorf("%s: %v (kind %v), want the reset, KindConnect", tt.url, err, schemes.KindOf(err))
		}
		if n := len(accepted); n != 1 {
			t.Errorf("%s: %d connections, want 1", tt.url, n)
		}
	}
}

// listNames lists raw to its end and returns the entries' names and
// what ended the listing (nil for io.EOF).
func listNames(t *testing.T, raw string) ([]string, error) {
	t.Helper()
	resp, err := (&Handler{}).List(context.Background(), &schemes.Request{URL: mustParse(t, raw), Dialer: &transport.Dialer{}})
	if err != nil {
		return nil, err
	}
	defer resp.Listing.Close()
	var names []string
	for {
		e, err := resp.Listing.Next()
		if errors.Is(err, io.EOF) {
			return names, nil
		}
		if err != nil {
			return names, err
		}
		names = append(names, e.Name)
	}
}

// checkEnd checks what ended a listing: nil when want is "", else an
// error of kind holding want.
func checkEnd(t *testing.T, err error, kind schemes.Kind, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("error %v, want a complete listing", err)
	case want != "" && (schemes.KindOf(err) != kind || !strings.Contains(fmt.Sprint(err), want)):
		t.Errorf("end %v (kind %v), want kind %v with %q", err, schemes.KindOf(err), kind, want)
	}
}

// TestMenuAskedAgainCanceled: a fetch canceled while the menu is asked
// again ends with the cancellation, not with a menu cut short.
func TestMenuAskedAgainCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newFakeServer(t, "0a\t/a\th\t70\t+\r\n")
	d := &cancelingDialer{cancel: cancel}
	resp, err := (&Handler{}).List(ctx, &schemes.Request{URL: mustParse(t, s.url("/")), Dialer: d})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Listing.Close()
	_, err = schemes.ReadAll(resp.Listing)
	if schemes.KindOf(err) != schemes.KindCanceled {
		t.Errorf("end %v (kind %v), want the cancellation", err, schemes.KindOf(err))
	}
}

// cancelingDialer dials the first connection and cancels the fetch when
// asked for a second.
type cancelingDialer struct {
	transport.Dialer
	cancel context.CancelFunc
	n      int
}

func (d *cancelingDialer) Dial(ctx context.Context, scheme, host string, port int) (net.Conn, error) {
	if d.n++; d.n > 1 {
		d.cancel()
	}
	return d.Dialer.Dial(ctx, scheme, host, port)
}
