//go:build integration

package browser

import (
	"bytes"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// site is a small gateway-shaped site on 127.0.0.1: a listing with a
// search form, a directory, a search result echoing the raw query, and
// pages that try to run scripts with and without a sandbox.
func site(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Index</title>
<ul id="entries"><li><a href="dir/">dir/</a></li><li><a href="a%20b.txt">a b.txt</a></li><li><a href="bytes.bin">bytes.bin</a></li></ul>
<form class="search" method="get" action="find"><input name="q"><button>Search</button></form>`)
	})
	mux.HandleFunc("/dir/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>dir</title><ul id="entries"><li><a href="../">..</a></li></ul>`)
	})
	mux.HandleFunc("/bytes.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(binBytes)
	})
	mux.HandleFunc("/find", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>found</title><p id="query">%s</p>`, html.EscapeString(r.URL.RawQuery))
	})
	for name, page := range hostilePages {
		mux.HandleFunc("/"+name, func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(name, "sandboxed") {
				w.Header().Set("Content-Security-Policy", "sandbox")
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		})
	}
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// binBytes is what /bytes.bin serves: every byte value, twice.
var binBytes = func() []byte {
	b := make([]byte, 512)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}()

// hostilePages try to set window.top.__pwned, each in its own way.
var hostilePages = map[string]string{
	"inline":           `<p id="x">hello</p><script>window.top.__pwned=1</script>`,
	"handler":          `<p id="x">hello</p><img src="/nothing" onerror="window.top.__pwned=1">`,
	"iframe":           `<p id="x">hello</p><iframe srcdoc="<script>window.top.__pwned=1</script>"></iframe>`,
	"sandboxed-inline": `<p id="x">hello</p><script>window.top.__pwned=1</script>`,
	"sandboxed-none":   `<p id="x">hello</p>`,
	"sandboxed-all":    `<p id="x">hello</p><script>window.top.__pwned=1</script><img src="/nothing" onerror="window.top.__pwned=1"><iframe srcdoc="<script>window.top.__pwned=1</script>"></iframe>`,
}

// TestNavigation reads a listing, follows a link, submits the search form
// and takes a screenshot, as the gateway's tests will.
func TestNavigation(t *testing.T) {
	ts := site(t)
	b := Start(t)
	if st := b.Open(ts.URL + "/"); st != 200 {
		t.Fatalf("status %d", st)
	}
	if got := b.Title(); got != "Index" {
		t.Errorf("title %q", got)
	}
	want := []Link{{"dir/", ts.URL + "/dir/"}, {"a b.txt", ts.URL + "/a%20b.txt"}, {"bytes.bin", ts.URL + "/bytes.bin"}}
	if got := b.Links("#entries li a"); !slices.Equal(got, want) {
		t.Errorf("links %q, want %q", got, want)
	}
	if got := b.Texts("#entries li"); !slices.Equal(got, []string{"dir/", "a b.txt", "bytes.bin"}) {
		t.Errorf("entries %q", got)
	}
	// A binary document is saved, not shown.
	if got, err := os.ReadFile(b.Download("bytes.bin")); err != nil || !bytes.Equal(got, binBytes) {
		t.Errorf("download: %d bytes, %v; want the %d served", len(got), err, len(binBytes))
	}
	if st := b.Click("#entries li:first-child a"); st != 200 || b.URL() != ts.URL+"/dir/" {
		t.Fatalf("click: status %d, at %s", st, b.URL())
	}
	if got := b.Count("#entries li"); got != 1 {
		t.Errorf("%d entries in dir/", got)
	}
	b.ClickHref(ts.URL + "/")
	if b.URL() != ts.URL+"/" {
		t.Fatalf("ClickHref: at %s", b.URL())
	}
	b.ClickLink("dir/")
	b.ClickLink("..")
	if b.URL() != ts.URL+"/" {
		t.Fatalf("back up at %s", b.URL())
	}
	// The browser's form encoding, as a person's search would send it.
	if st := b.SubmitForm("form.search", "q", "a b&c/é"); st != 200 {
		t.Fatalf("search status %d", st)
	}
	if got, want := b.Text("#query"), "q=a+b%26c%2F%C3%A9"; got != want {
		t.Errorf("query %q, want %q", got, want)
	}
	png := filepath.Join(t.TempDir(), "shot.png")
	b.Screenshot(png)
	if data, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) || len(data) < 1000 {
		t.Errorf("screenshot: %d bytes, %v", len(data), err)
	}
	b.NoScriptRan()
}

// TestScriptDetection shows that ScriptEvidence and the __pwned check see
// a page's scripts when they run (so that their silence about a sandboxed
// page means something), and that the sandbox stops all three kinds.
func TestScriptDetection(t *testing.T) {
	ts := site(t)
	b := Start(t)
	for _, tc := range []struct {
		page    string
		ran     bool
		blocked bool
	}{
		{"inline", true, false},
		{"handler", true, false},
		{"iframe", true, false},
		{"sandboxed-inline", false, true},
		{"sandboxed-all", false, true},
		{"sandboxed-none", false, false},
	} {
		t.Run(tc.page, func(t *testing.T) {
			tab := b.Tab(t)
			tab.Open(ts.URL + "/" + tc.page)
			if got := tab.Text("#x"); got != "hello" {
				t.Errorf("text %q", got)
			}
			ev := tab.ScriptEvidence()
			t.Logf("evidence %q, blocked %q", ev, tab.Blocked())
			if ran := len(ev) > 0; ran != tc.ran {
				t.Errorf("evidence of scripts: %q, want some: %v", ev, tc.ran)
			}
			if pwned := tab.Global("__pwned") != "undefined"; pwned != tc.ran {
				t.Errorf("window.__pwned set: %v, want %v", pwned, tc.ran)
			}
			if bl := tab.Blocked(); (len(bl) > 0) != tc.blocked {
				t.Errorf("blocked reports %q, want some: %v", bl, tc.blocked)
			}
		})
	}
}

// TestNoNetworkBeyondLoopback: a page's reach for another host ends at the
// harness's refusing proxy, recorded; loopback pages load direct.
func TestNoNetworkBeyondLoopback(t *testing.T) {
	ts := site(t)
	b := Start(t)
	b.Open(ts.URL + "/")
	if st, err := b.Load("http://outside.example/x"); err == nil && st != http.StatusForbidden {
		t.Errorf("outside.example loaded with status %d", st)
	}
	if _, err := b.Load("https://outside.example/"); err == nil {
		t.Errorf("https://outside.example/ loaded")
	}
	got := b.Outside()
	for _, want := range []string{"GET http://outside.example/x", "CONNECT outside.example:443"} {
		if !slices.Contains(got, want) {
			t.Errorf("proxy saw %q, want %q among them", got, want)
		}
	}
	for _, r := range got {
		if strings.Contains(r, "127.0.0.1") {
			t.Errorf("a loopback request went to the proxy: %s", r)
		}
	}
}
