package http

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// TestListCopiesThePage: a listing with Request.Page writes the page to
// it byte for byte as its entries are read — sniffed pages (no
// Content-Type) whole, their sniffed head included — and gives its
// Last-Modified as the Response's ModTime; a URL that is no index page
// writes nothing.
func TestListCopiesThePage(t *testing.T) {
	long := "<html><body>" + strings.Repeat("<p>text, no link</p>\n", 100) + `<a href="a.txt">a</a></body></html>`
	modified := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no sniffing by net/http
		switch r.URL.Path {
		case "/typed/":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Last-Modified", modified.Format(http.TimeFormat))
		case "/sniffed/":
		case "/plain/":
			w.Header().Set("Content-Type", "text/plain")
		}
		w.Write([]byte(long))
	}, false)
	for _, path := range []string{"/typed/", "/sniffed/"} {
		var copied bytes.Buffer
		r, _ := e.req(path)
		r.Page = &copied
		resp, err := e.h.List(context.Background(), r)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		all, err := schemes.ReadAll(resp.Listing)
		if err != nil || len(all) != 1 || copied.String() != long {
			t.Errorf("%s: %d entries, %v; copied %d bytes of %d", path, len(all), err, copied.Len(), len(long))
		}
		if path == "/typed/" && !resp.ModTime.Equal(modified) {
			t.Errorf("%s: ModTime %v, want %v", path, resp.ModTime, modified)
		}
	}
	var copied bytes.Buffer
	r, _ := e.req("/plain/")
	r.Page = &copied
	if _, err := e.h.List(context.Background(), r); schemes.KindOf(err) != schemes.KindUsage || copied.Len() != 0 {
		t.Errorf("not an index page: %v, %d bytes copied", err, copied.Len())
	}
}
