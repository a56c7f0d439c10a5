package gopher

import (
	"context"
	"errors"
	"io"
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
