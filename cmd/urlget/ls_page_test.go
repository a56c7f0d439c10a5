package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLsPageWithoutEntries: a page whose links all lead elsewhere (the
// test bed's site/) and an empty directory's index list nothing and exit
// 0, as ls of an empty directory does, with a word on stderr (none with
// -s); what is not HTML is the usage error, exit 2.
func TestLsPageWithoutEntries(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/site/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><h1>site</h1><p><a href="../text/lf.txt">lf.txt</a></p></body></html>`)
		case "/empty/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body><h1>Index of /empty/</h1><hr><pre><a href=\"../\">../</a>\n</pre><hr></body></html>\n")
		default:
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "text\n")
		}
	}))
	defer srv.Close()
	for _, path := range []string{"/site/", "/empty/"} {
		out, stderr, code := urlget(t, "", "ls", srv.URL+path)
		if code != 0 || out != "" || stderr != "urlget: "+srv.URL+path+": no entries: the page links to nothing one level below it (urlget URL prints the page)\n" {
			t.Errorf("ls %s: exit %d, stdout %q, stderr %q", path, code, out, stderr)
		}
		if out, stderr, code := urlget(t, "", "ls", "-s", srv.URL+path); code != 0 || out != "" || stderr != "" {
			t.Errorf("ls -s %s: exit %d, stdout %q, stderr %q", path, code, out, stderr)
		}
	}
	if _, stderr, code := urlget(t, "", "ls", srv.URL+"/text.txt"); code != 2 || !strings.Contains(stderr, "not an HTML index page") {
		t.Errorf("ls of a text: exit %d, stderr %q", code, stderr)
	}
}
