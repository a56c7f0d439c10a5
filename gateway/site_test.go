package gateway

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestFetchMetadata: a request from another site is served only as a
// top-level navigation by GET or HEAD; as anything else it is refused
// (403, a page saying why) before the gateway connects anywhere. A
// request without Fetch Metadata is judged as before.
func TestFetchMetadata(t *testing.T) {
	addr, conns := gopherFake(t, "iA menu\t\terror.host\t1\r\n")
	base := gateway(t, Options{})
	menu := base + "/gopher/" + addr + "/1/"
	const served, refused = http.StatusOK, http.StatusForbidden
	for _, c := range []struct {
		method, site, mode, dest, user string
		want                           int
	}{
		{"GET", "", "", "", "", served}, // curl, a script
		{"HEAD", "", "", "", "", served},
		{"GET", "none", "navigate", "document", "", served},        // typed, a bookmark
		{"GET", "same-origin", "navigate", "document", "", served}, // a link on the gateway's page
		{"GET", "same-origin", "no-cors", "image", "", served},
		{"GET", "cross-site", "navigate", "document", "?1", served}, // a link on another site's page
		{"HEAD", "cross-site", "navigate", "document", "?1", served},
		{"GET", "cross-site", "navigate", "document", "", refused}, // a script's location = …
		{"HEAD", "same-site", "navigate", "document", "", refused},
		{"GET", "same-site", "navigate", "document", "?1", served}, // another port of 127.0.0.1
		{"GET", "cross-site", "no-cors", "image", "", refused},
		{"GET", "same-site", "no-cors", "image", "", refused}, // same site, another origin
		{"GET", "cross-site", "no-cors", "script", "", refused},
		{"GET", "cross-site", "no-cors", "style", "", refused},
		{"GET", "cross-site", "no-cors", "empty", "", refused}, // fetch(u, {mode: "no-cors"})
		{"GET", "cross-site", "cors", "empty", "", refused},    // fetch(u)
		{"GET", "cross-site", "navigate", "iframe", "", refused},
		{"GET", "same-site", "navigate", "frame", "", refused},
		{"GET", "cross-site", "navigate", "embed", "", refused},
		{"GET", "cross-site", "no-cors", "object", "", refused},
		{"GET", "cross-site", "no-cors", "", "", refused},
		{"GET", "cross-site", "", "", "", refused},                    // only the site
		{"GET", "some-future-value", "no-cors", "image", "", refused}, // anything but same-origin and none
		{"POST", "cross-site", "navigate", "document", "", refused},   // a form posted from elsewhere
	} {
		name := fmt.Sprintf("%s site=%q mode=%q dest=%q user=%q", c.method, c.site, c.mode, c.dest, c.user)
		before := conns.Load()
		req := newRequest(t, c.method, menu)
		for h, v := range map[string]string{"Sec-Fetch-Site": c.site, "Sec-Fetch-Mode": c.mode, "Sec-Fetch-Dest": c.dest, "Sec-Fetch-User": c.user} {
			if v != "" {
				req.Header.Set(h, v)
			}
		}
		resp, body := get(t, req)
		if resp.StatusCode != c.want {
			t.Errorf("%s: %d, want %d: %s", name, resp.StatusCode, c.want, body)
			continue
		}
		connected := conns.Load() - before
		switch {
		case c.want == served && connected != 1:
			t.Errorf("%s: served, with %d connections to the server, want 1", name, connected)
		case c.want == refused && connected != 0:
			t.Errorf("%s: refused, yet the gateway connected to the server %d times", name, connected)
		case c.want == refused && c.method != "HEAD" && !strings.Contains(body, "Sec-Fetch-Site: "+c.site):
			t.Errorf("%s: the page does not say why: %s", name, body)
		}
	}
}

// TestFetchMetadataPages: the gateway's own pages (/, /go) are refused to
// another site's frames and images as its retrievals are, and a proxy
// request, whose Fetch Metadata are about its target's site, is not
// judged by them.
func TestFetchMetadataPages(t *testing.T) {
	addr, conns := gopherFake(t, "iA menu\t\terror.host\t1\r\n")
	base := gateway(t, Options{})
	for _, p := range []string{"/", "/go?url=gopher%3A%2F%2F" + addr + "%2F"} {
		req := newRequest(t, "GET", base+p)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Sec-Fetch-Mode", "navigate")
		req.Header.Set("Sec-Fetch-Dest", "iframe")
		if resp, _ := get(t, req); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s in another site's iframe: %d, want 403", p, resp.StatusCode)
		}
	}
	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET gopher://%s/1/ HTTP/1.1\r\nHost: %s\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\nSec-Fetch-Dest: image\r\n\r\n", addr, addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK || conns.Load() != 1 {
		t.Errorf("a proxy request with another site's metadata: %d, %d connections; want 200, 1", resp.StatusCode, conns.Load())
	}
}
