package http

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// closingServer answers every request on 127.0.0.1 with reply, head and
// body as written, then closes the connection: it frames a body as the
// case says, which net/http's server would not let a test do.
func closingServer(t *testing.T, reply string) string {
	addr, _ := rawServer(t, func(c net.Conn, _ string) {
		io.WriteString(c, reply)
		c.Close()
	})
	return "http://" + addr
}

// TestIndexPageEnd: an index page is whole only when its body was framed
// and read to its end and, where it opened <html>, its </html> was seen;
// a close-delimited page only with its </html>. Otherwise the listing
// gives the entries it had and fails, so a mirror deletes nothing.
func TestIndexPageEnd(t *testing.T) {
	const (
		head  = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
		links = `<a href="a.txt">a.txt</a>` + "\n" + `<a href="b/">b/</a>` + "\n"
		page  = "<html><body><pre>\n" + links + "</pre></body></html>\n"
		open  = "<html><body><pre>\n" + links
	)
	length := func(body string) string {
		return head + "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}
	chunked := func(body string, end bool) string {
		s := head + "Transfer-Encoding: chunked\r\n\r\n" + strconv.FormatInt(int64(len(body)), 16) + "\r\n" + body + "\r\n"
		if end {
			s += "0\r\n\r\n"
		}
		return s
	}
	closed := head + "Connection: close\r\n\r\n"
	for _, tt := range []struct {
		name  string
		reply string
		names []string
		kind  schemes.Kind // of the error the listing ends with; want says its text
		want  string       // "" for a complete listing
	}{
		{name: "framed by length", reply: length(page), names: []string{"a.txt", "b"}},
		{name: "chunked", reply: chunked(page, true), names: []string{"a.txt", "b"}},
		{name: "close-delimited with </html>", reply: closed + page, names: []string{"a.txt", "b"}},
		{name: "HTTP/1.0 close-delimited with </html>", reply: strings.Replace(closed, "HTTP/1.1", "HTTP/1.0", 1) + page,
			names: []string{"a.txt", "b"}},
		{name: "close-delimited without </html>", reply: closed + open, names: []string{"a.txt", "b"}, kind: schemes.KindProtocol,
			want: "the index page ended without </html> and its length was not given: it may be cut short"},
		{name: "close-delimited fragment without <html>", reply: closed + links, names: []string{"a.txt", "b"},
			kind: schemes.KindProtocol, want: "ended without </html> and its length was not given"},
		{name: "HTTP/1.0 close-delimited without </html>", reply: strings.Replace(closed, "HTTP/1.1", "HTTP/1.0", 1) + open,
			names: []string{"a.txt", "b"}, kind: schemes.KindProtocol, want: "its length was not given"},
		{name: "short Content-Length", reply: head + "Content-Length: 4000\r\n\r\n" + open, names: []string{"a.txt", "b"},
			kind: schemes.KindConnect, want: "connection closed"},
		{name: "chunked without its terminator", reply: chunked(open, false), names: []string{"a.txt", "b"},
			kind: schemes.KindConnect, want: "connection closed"},
		{name: "framed by length, no <html> element", reply: length(links), names: []string{"a.txt", "b"}},
		{name: "chunked, no <html> element", reply: chunked(links, true), names: []string{"a.txt", "b"}},
		{name: "framed by length, <html> not closed", reply: length(open), names: []string{"a.txt", "b"},
			kind: schemes.KindProtocol, want: "opened <html> but ended without </html>"},
		{name: "upper-case tags", reply: closed + strings.ToUpper(page[:18]) + links + "</PRE></BODY></HTML>",
			names: []string{"a.txt", "b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := &Handler{}
			defer h.CloseIdleConnections()
			loc, err := parse(closingServer(t, tt.reply) + "/pub/")
			if err != nil {
				t.Fatal(err)
			}
			resp, err := h.List(context.Background(), &schemes.Request{URL: loc, Dialer: &testDialer{}})
			if err != nil {
				t.Fatal(err)
			}
			ents, err := schemes.ReadAll(resp.Listing)
			var names []string
			for _, e := range ents {
				names = append(names, e.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.names, ",") {
				t.Errorf("entries %q, want %q", names, tt.names)
			}
			var se *schemes.Error
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want a complete listing", err)
			case tt.want == "":
			case !errors.As(err, &se) || se.Kind != tt.kind || !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %v, want kind %v with %q", err, tt.kind, tt.want)
			}
		})
	}
}

// TestDownloadNotJudgedByItsEnd: a page fetched as a file (not listed)
// is delivered as it came, close-delimited and without </html>: the rule
// is the listing's.
func TestDownloadNotJudgedByItsEnd(t *testing.T) {
	body := "<html><body>no end"
	loc, err := parse(closingServer(t, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n"+body) + "/page.html")
	if err != nil {
		t.Fatal(err)
	}
	h := &Handler{}
	defer h.CloseIdleConnections()
	resp, err := h.Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: &testDialer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, err := io.ReadAll(resp.Body); err != nil || string(b) != body {
		t.Errorf("%q %v", b, err)
	}
}

// TestFramingOf: how each kind of response is delimited, HTTP/2's
// END_STREAM included (the in-process servers above speak HTTP/1.x).
func TestFramingOf(t *testing.T) {
	for _, tt := range []struct {
		name string
		resp http.Response
		want framing
	}{
		{"length", http.Response{ProtoMajor: 1, ContentLength: 10}, byLength},
		{"empty by length", http.Response{ProtoMajor: 1, ContentLength: 0}, byLength},
		{"chunked", http.Response{ProtoMajor: 1, ContentLength: -1, TransferEncoding: []string{"chunked"}}, byChunks},
		{"close", http.Response{ProtoMajor: 1, ContentLength: -1}, byClose},
		{"HTTP/2 without length", http.Response{ProtoMajor: 2, ContentLength: -1}, byStream},
	} {
		if got := framingOf(&tt.resp); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
