package main

import (
	"io"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes/nntp"
	"github.com/urlget/urlget/schemes/wais"
)

func TestNNTPFlags(t *testing.T) {
	// want holds the Handler's settings (a Handler itself holds a mutex).
	type want struct {
		Server string
		Max    int
		Part   nntp.Part
	}
	for _, tc := range []struct {
		args []string
		want want
	}{
		{nil, want{Max: nntp.DefaultMax}},
		{[]string{"--nntp-server", "news.example:1119", "--max", "7", "--head"},
			want{Server: "news.example:1119", Max: 7, Part: nntp.PartHead}},
		{[]string{"-I"}, want{Max: nntp.DefaultMax, Part: nntp.PartHead}}, // curl's -I is --head
		{[]string{"--body"}, want{Max: nntp.DefaultMax, Part: nntp.PartBody}},
		{[]string{"--head", "--body"}, want{Max: nntp.DefaultMax}},
		{[]string{"--ssl-reqd"}, want{Max: nntp.DefaultMax}}, // the fetch Client's policy, not the handler's
	} {
		h := handlerFor[*nntp.Handler](t, "news", tc.args...)
		if h.Server != tc.want.Server || h.Max != tc.want.Max || h.Part != tc.want.Part {
			t.Errorf("%v: handler %+v", tc.args, h)
		}
	}
	if _, err := parseFlags([]string{"--max", "0", "news:x"}, strings.NewReader(""), io.Discard); err == nil ||
		!strings.Contains(err.Error(), "--max 0") {
		t.Errorf("--max 0: %v", err)
	}
}

// TestMaxFlag: --max is the command's, read by each scheme's flags that
// ask for a number of entries (news articles, WAIS hits), never one
// scheme's flag configuring another's handler.
func TestMaxFlag(t *testing.T) {
	w, n := handlerFor[*wais.Handler](t, "wais"), handlerFor[*nntp.Handler](t, "nntp")
	if w.Max != 0 || n.Max != nntp.DefaultMax {
		t.Errorf("no --max: WAIS %+v, NNTP max %d", w, n.Max)
	}
	w, n = handlerFor[*wais.Handler](t, "wais", "--max", "7"), handlerFor[*nntp.Handler](t, "nntp", "--max", "7")
	if w.Max != 7 || n.Max != 7 {
		t.Errorf("--max 7: WAIS %+v, NNTP max %d", w, n.Max)
	}
	if n := handlerFor[*nntp.Handler](t, "nntps", "--no-pipeline"); n.Window != 1 {
		t.Errorf("--no-pipeline: window %d", n.Window)
	}
}

func TestNewsCommandLine(t *testing.T) {
	t.Setenv("NNTPSERVER", "")
	_, stderr, code := urlget(t, "", "news:comp.infosystems.www")
	if code != 2 || !strings.Contains(stderr, "--nntp-server") || !strings.Contains(stderr, "NNTPSERVER") {
		t.Errorf("no server: exit %d, %q", code, stderr)
	}
	_, stderr, code = urlget(t, "", "--nntp-server", "127.0.0.1:1", "news:a%0D%0AQUIT@b")
	if code != 7 {
		t.Errorf("CRLF in message-id: exit %d, %q", code, stderr)
	}
	t.Setenv("NNTPSERVER", "news.example:1119")
	out, _, code := urlget(t, "", "--explain", "--max", "5", "--body", "news:x@y", "news:local.test")
	for _, want := range []string{"connect news.example:1119", "BODY <x@y>", "GROUP local.test", "newest 5"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--explain: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
}
