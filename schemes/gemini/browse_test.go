package gemini

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestBrowse: a caller that browses gets a text/gemini page as its lines
// and links, in order, from one request; another media type, and a
// caller that does not browse, get the bytes.
func TestBrowse(t *testing.T) {
	now := time.Now()
	srv := newFakeServer(t, selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour)), map[string]string{
		"@/":        "20 text/gemini; lang=en\r\n# Home\n\nSome text.\n=> doc.gmi A document\n```\n=> not.gmi in a block\n```\n=> gemini://elsewhere.example/ Away\n=> gopher://127.0.0.1:70/ Gopher\n=>\n",
		"@/doc.gmi": "20 text/plain\r\n=> not.gmi a link\n",
	})
	h := &Handler{KnownHosts: filepath.Join(t.TempDir(), "known")}
	browse := func(raw string) *schemes.Response {
		t.Helper()
		loc, err := parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := h.Fetch(context.Background(), &schemes.Request{URL: loc, Dialer: &transport.Dialer{}, Browse: true})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	resp := browse(srv.base() + "/")
	if resp.Body != nil || resp.Listing == nil || resp.Type != "text/gemini; lang=en" {
		t.Fatalf("browsing a text/gemini page: body %v listing %v type %q", resp.Body, resp.Listing, resp.Type)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, string(e.Kind)+" "+e.Title+" "+schemestest.LocatorString(e)+e.Target)
	}
	want := []string{
		"info # Home ",
		"info  ",
		"info Some text. ",
		"file A document " + srv.base() + "/doc.gmi",
		"info => not.gmi in a block ",
		"link Away gemini://elsewhere.example/",
		"link Gopher gopher://127.0.0.1:70/",
		"info => ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(srv.got); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}

	resp = browse(srv.base() + "/doc.gmi")
	if resp.Listing != nil || resp.Body == nil {
		t.Fatalf("browsing text/plain: listing %v body %v, want the bytes", resp.Listing, resp.Body)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "=> not.gmi a link\n" {
		t.Errorf("text/plain body %q", b)
	}

	if _, body, _, err := get(t, h, srv.base()+"/", false, nil); err != nil || !strings.HasPrefix(body, "# Home\n") {
		t.Errorf("not browsing: %q %v, want the bytes", body, err)
	}
}

// TestInputQuestion: a 1x that nobody answers fails with the question on
// the error's Form, a secret (11) as a password, so that a caller with a
// form of its own knows not to put it in a URL it shows; it and a 6x say
// the server Asks (a crawl passes them by).
func TestInputQuestion(t *testing.T) {
	now := time.Now()
	srv := newFakeServer(t, selfSigned(t, now.Add(-time.Hour), now.Add(time.Hour)), map[string]string{
		"@/find":   "10 What word?\r\n",
		"@/secret": "11 Pass\x07word?\r\n",
		"@/cert":   "60 Who are you?\r\n",
		"@/gone":   "52 It went away\r\n",
	})
	h := &Handler{KnownHosts: filepath.Join(t.TempDir(), "known")}
	for path, want := range map[string]schemes.Question{
		"/find":   {Kind: schemes.QuestionText, Prompt: "What word?"},
		"/secret": {Kind: schemes.QuestionPassword, Prompt: schemes.Printable("Pass\x07word?", 200)},
	} {
		_, _, _, err := get(t, h, srv.base()+path, false, nil)
		e := schemestest.UsageError(t, err, "query")
		if e == nil || e.Form == nil || len(e.Form.Questions) != 1 || e.Form.Questions[0].Kind != want.Kind || e.Form.Questions[0].Prompt != want.Prompt || !e.Asks {
			t.Errorf("%s: %#v, want the question %+v, and Asks", path, e, want)
		}
	}
	// A 6x asks too (for an identity); a 5x is the page's failure.
	for path, asks := range map[string]bool{"/cert": true, "/gone": false} {
		_, _, _, err := get(t, h, srv.base()+path, false, nil)
		if e, ok := err.(*schemes.Error); !ok || e.Asks != asks {
			t.Errorf("%s: %#v, want Asks %v", path, err, asks)
		}
	}
}
