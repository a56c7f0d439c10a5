//go:build integration

package integration

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/testbed"
)

// TestBrowserNginx proves the browser harness against a real server: it
// reads nginx's autoindex of the fixture tree as a person sees it, follows
// directory links down to text files (shown, not downloaded) and checks
// their text against the fixtures.
func TestBrowserNginx(t *testing.T) {
	testbed.Require(t, "http")
	b := browser.Start(t)
	root := "http://" + testbed.Addr(testbed.HTTPPort) + "/"
	if st := b.Open(root); st != 200 {
		t.Fatalf("%s: status %d", root, st)
	}
	names := b.Texts("pre a")
	for _, want := range []string{"../", "bin/", "dir with space/", "nested/", "names/", "text/", "README.txt"} {
		if !slices.Contains(names, want) {
			t.Errorf("autoindex of / shows %q, want %q among them", names, want)
		}
	}

	// Down a directory whose name needs escaping, to a file in it.
	if st := b.Click(`pre a[href="dir%20with%20space/"]`); st != 200 {
		t.Fatalf("dir with space/: status %d", st)
	}
	if got, want := b.URL(), root+"dir%20with%20space/"; got != want {
		t.Errorf("at %s, want %s", got, want)
	}
	if names := b.Texts("pre a"); !slices.Equal(names, []string{"../", "inside.txt"}) {
		t.Errorf("dir with space/ shows %q", names)
	}
	b.Click(`pre a[href="inside.txt"]`)
	if got, want := b.Text("body"), testbed.FixtureFiles["dir with space/inside.txt"]; got != want {
		t.Errorf("inside.txt shows %q, want %q", got, want)
	}

	// Four levels down, one click each, then back up by "../".
	b.Open(root)
	for _, d := range []string{"nested/", "level1/", "level2/", "level3/"} {
		b.Click(fmt.Sprintf("pre a[href=%q]", d))
	}
	if got, want := b.URL(), root+"nested/level1/level2/level3/"; got != want {
		t.Fatalf("at %s, want %s", got, want)
	}
	b.Click(`pre a[href="deep.txt"]`)
	if got, want := b.Text("body"), testbed.FixtureFiles["nested/level1/level2/level3/deep.txt"]; got != want {
		t.Errorf("deep.txt shows %q, want %q", got, want)
	}
	b.Open(root + "nested/level1/")
	b.Click(`pre a[href="../"]`)
	if got, want := b.URL(), root+"nested/"; got != want {
		t.Errorf("../ led to %s, want %s", got, want)
	}

	// Names with a "#", a ";" and a "%": the browser follows nginx's
	// escaped hrefs to the right files.
	b.Open(root + "names/")
	links := b.Links("pre a")
	for _, name := range []string{"hash#mark.txt", "semi;colon.txt", "percent%20literal.txt", "a #b;c.txt", "café.txt"} {
		i := slices.IndexFunc(links, func(l browser.Link) bool { return l.Text == name })
		if i < 0 {
			t.Errorf("names/ shows no %q: %q", name, links)
			continue
		}
		b.Open(links[i].Href)
		if got, want := b.Text("body"), testbed.FixtureFiles["names/"+name]; got != want {
			t.Errorf("%s (%s) shows %q, want %q", name, links[i].Href, got, want)
		}
		b.Open(root + "names/")
	}
	b.NoScriptRan()
	if out := b.Outside(); len(out) > 0 {
		t.Errorf("the browser reached beyond 127.0.0.1: %q", out)
	}
}

// TestBrowserSandboxedHostilePage: a page whose HTML sets window.top.__pwned
// from a script runs nothing when served with Content-Security-Policy:
// sandbox, as the gateway serves documents; the same page without the
// header shows that the check sees a script that does run.
func TestBrowserSandboxedHostilePage(t *testing.T) {
	const page = `<!doctype html><title>hostile</title><p id="p">hostile text</p>` +
		`<script>window.top.__pwned=1</script><img src="/none" onerror="window.top.__pwned=1">`
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sandboxed" {
			w.Header().Set("Content-Security-Policy", "sandbox")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	defer ts.Close()
	b := browser.Start(t)

	b.Open(ts.URL + "/sandboxed")
	if got := b.Text("#p"); got != "hostile text" {
		t.Errorf("sandboxed page shows %q", got)
	}
	b.NoScriptRan("__pwned")
	if len(b.Blocked()) == 0 {
		t.Errorf("the browser reported no blocked script: was the page's script there?")
	}

	b.Open(ts.URL + "/open")
	if got := b.Global("__pwned"); got != "number" {
		t.Errorf("without the sandbox window.__pwned is a %s: the check would not see a script run", got)
	}
	if len(b.ScriptEvidence()) == 0 {
		t.Errorf("without the sandbox no script evidence: the check would not see a script run")
	}
}
