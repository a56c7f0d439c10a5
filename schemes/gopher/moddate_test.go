package gopher

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

func TestParseModDate(t *testing.T) {
	for _, tt := range []struct {
		line string
		want string // RFC 3339, "" for none
	}{
		{" Mod-Date: Tue Jan  2 03:04:05 2024 <20240102030405>", "2024-01-02T03:04:05Z"},
		{"Mod-Date: <19991231235959>  ", "1999-12-31T23:59:59Z"},
		{" Mod-Date: Sat Nov 21 04:55:34 2026", ""},                                // no <…>
		{" Mod-Date: x <2024010203040>", ""},                                       // 13 digits
		{" Mod-Date: x <20241302030405>", ""},                                      // month 13
		{" Admin: someone <root@127.0.0.1>", ""},                                   // another line
		{" Mod-Date: <20240102030405> trailing", ""},                               // not at the end
		{" Mod-Date: a <20240102030405> <20250102030405>", "2025-01-02T03:04:05Z"}, // the last one
	} {
		got, ok := parseModDate(tt.line)
		if s := got.Format(time.RFC3339); ok != (tt.want != "") || ok && s != tt.want {
			t.Errorf("parseModDate(%q) = %s, %v; want %q", tt.line, s, ok, tt.want)
		}
	}
}

// dollarReply is a `$` reply as pygopherd 3.0.0 sends it (gopher-notes §8).
const dollarReply = "+-2\r\n" +
	"+INFO: 0notes\t/d/notes.txt\t127.0.0.1\t7071\t+\r\n+ADMIN:\r\n Admin: a <root@h>\r\n" +
	" Mod-Date: Tue Jan  2 03:04:05 2024 <20240102030405>\r\n+VIEWS:\r\n text/plain: <1k>\r\n" +
	"+INFO: 9data\t/d/data.bin\t127.0.0.1\t7071\t+\r\n+ADMIN:\r\n Admin: a <root@h>\r\n" +
	" Mod-Date: Wed Jan  3 00:00:00 2024 <20240103000000>\r\n+VIEWS:\r\n application/octet-stream: <0k>\r\n" +
	"+INFO: 1sub\t/d/sub\t127.0.0.1\t7071\t+\r\n+VIEWS:\r\n application/gopher+-menu: <1k>\r\n"

// TestListWantModTime: a listing that wants times asks a Gopher+ menu for
// `$` once and gives each item its Mod-Date to the second; a plain menu,
// or a listing that wants no times, sends the menu request only.
func TestListWantModTime(t *testing.T) {
	plusMenu := "+-2\r\n0notes\t/d/notes.txt\th\t70\t+\r\n9data\t/d/data.bin\th\t70\t+\r\n1sub\t/d/sub\th\t70\t+\r\n9new\t/d/new.bin\th\t70\t+\r\n"
	list := func(s *fakeServer, path string, want bool) ([]schemes.Entry, *recTrace) {
		t.Helper()
		tr := &recTrace{}
		resp, err := (&Handler{}).List(context.Background(), &schemes.Request{URL: mustParse(t, s.url(path)), Dialer: &transport.Dialer{}, Trace: tr, WantModTime: want})
		if err != nil {
			t.Fatal(err)
		}
		ents, err := schemes.ReadAll(resp.Listing)
		if err != nil {
			t.Fatal(err)
		}
		return ents, tr
	}
	s := newRouteServer(t, map[string]string{"/d\t+\r\n": plusMenu, "/d\t$\r\n": dollarReply, "/d\r\n": "0plain\t/d/p\th\t70\r\n.\r\n"})
	ents, _ := list(s, "/1/d%09%09+", true)
	got := map[string]string{}
	for _, e := range ents {
		got[e.Name] = ""
		if !e.ModTime.IsZero() {
			got[e.Name] = e.ModTime.Format(time.RFC3339) + " " + e.Precision.String()
		}
		// The first view's size, as written, shown but never taken
		// for Size.
		if size, ok := e.Extra.Get("view_size"); ok || e.Size != -1 {
			got[e.Name] += " <" + size + ">"
		}
	}
	want := map[string]string{"notes.txt": "2024-01-02T03:04:05Z 1s <1k>", "data.bin": "2024-01-03T00:00:00Z 1s <0k>", "sub": " <1k>", "new.bin": ""}
	if len(got) != len(want) {
		t.Fatalf("entries %v", got)
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s: time %q, want %q", n, got[n], w)
		}
	}
	if reqs := strings.Join(s.requests(), ""); reqs != "/d\t+\r\n/d\t$\r\n" {
		t.Errorf("requests %q", reqs)
	}
	// Without WantModTime, or for a plain menu, no `$` is sent.
	before := len(s.requests())
	list(s, "/1/d%09%09+", false)
	ents, _ = list(s, "/1/d", true)
	if reqs := s.requests()[before:]; len(reqs) != 2 || reqs[0] != "/d\t+\r\n" || reqs[1] != "/d\r\n" {
		t.Errorf("requests %q", reqs)
	}
	if len(ents) != 1 || !ents[0].ModTime.IsZero() {
		t.Errorf("plain menu: %+v", ents)
	}
	// A server that answers `$` in plain Gopher gives no times, and the
	// listing still succeeds; the trace says why.
	p := newRouteServer(t, map[string]string{"/d\t+\r\n": plusMenu, "/d\t$\r\n": "0x\t/x\th\t70\r\n.\r\n"})
	ents, tr := list(p, "/1/d%09%09+", true)
	if len(ents) != 4 || !ents[0].ModTime.IsZero() || !strings.Contains(tr.String(), "answered $ in plain Gopher") {
		t.Errorf("%+v\n%s", ents, tr)
	}
}

func TestReadModDatesBounded(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3; i++ {
		b.WriteString("+INFO: 0x\t/x" + string(rune('a'+i)) + "\th\t70\t+\r\n+ADMIN:\r\n Mod-Date: <20240102030405>\r\n")
	}
	dates := map[string]time.Time{}
	if err := readModDates(strings.NewReader(b.String()), menuFacts{dates: dates}); err != nil || len(dates) != 3 {
		t.Fatalf("%v %v", dates, err)
	}
	// A Mod-Date outside +ADMIN, or before any +INFO, is not taken.
	dates = map[string]time.Time{}
	readModDates(strings.NewReader("+ADMIN:\r\n Mod-Date: <20240102030405>\r\n+INFO: 0x\t/x\th\t70\r\n+ABSTRACT:\r\n Mod-Date: <20240102030405>\r\n"), menuFacts{dates: dates})
	if len(dates) != 0 {
		t.Errorf("%v", dates)
	}
}

// TestListFormFromDollar: an item that a Gopher+ menu flags "+" but whose
// `$` attributes hold an +ASK block (pygopherd flags no item "?") is a
// form: its entry's Form is its URL with the Gopher+ string "?", when the
// listing wants times (the `$` request is the one it sends for them);
// items without the block, and a listing that wants no times, have none.
func TestListFormFromDollar(t *testing.T) {
	menu := "+-2\r\n0form\t/d/form.txt\th\t70\t+\r\n0notes\t/d/notes.txt\th\t70\t+\r\n"
	dollar := "+-2\r\n+INFO: 0form\t/d/form.txt\th\t70\t+\r\n+ASK:\r\n Ask: Name?\tAnon\r\n" +
		"+INFO: 0notes\t/d/notes.txt\th\t70\t+\r\n+ABSTRACT:\r\n +ASK: is text here\r\n"
	s := newRouteServer(t, map[string]string{"/d\t+\r\n": menu, "/d\t$\r\n": dollar})
	for _, want := range []bool{true, false} {
		resp, err := (&Handler{}).List(context.Background(), &schemes.Request{URL: mustParse(t, s.url("/1/d%09%09+")), Dialer: &transport.Dialer{}, Trace: &recTrace{}, WantModTime: want})
		if err != nil {
			t.Fatal(err)
		}
		ents, err := schemes.ReadAll(resp.Listing)
		if err != nil || len(ents) != 2 {
			t.Fatalf("%+v %v", ents, err)
		}
		forms := map[string]string{}
		for _, e := range ents {
			if e.Form != nil {
				forms[e.Name] = e.Form.String()
			}
		}
		if !want && len(forms) != 0 {
			t.Errorf("without WantModTime: forms %q", forms)
		}
		if want && (len(forms) != 1 || !strings.HasSuffix(forms["form.txt"], "/0/d/form.txt%09%09?")) {
			t.Errorf("forms %q, want form.txt's only, ending in %%09%%09?", forms)
		}
	}
}
