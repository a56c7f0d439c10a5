package main

import (
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/ftp"
)

func TestFTPFlags(t *testing.T) {
	h := handlerFor[*ftp.Handler](t, "ftp", "--ftp-anon-password", "me@example.org", "--ftp-ssl")
	if h.AnonPassword != "me@example.org" || !h.ExplicitTLS {
		t.Errorf("handler %+v", h)
	}
	// --ssl-reqd is the fetch Client's policy (Request.RequireTLS), not a
	// handler setting: ftp's own --ftp-ssl stays off.
	if h := handlerFor[*ftp.Handler](t, "ftp", "--ssl-reqd"); h.ExplicitTLS {
		t.Errorf("--ssl-reqd: %+v", h)
	}
	if h := handlerFor[*ftp.Handler](t, "ftps", "--no-pipeline"); !h.NoPipeline {
		t.Errorf("--no-pipeline: %+v", h)
	}
}

// TestFTPTypeFlags: --ascii and --binary set the TYPE of URLs without
// ";type=" (the handler's DefaultType); giving both is a usage error.
func TestFTPTypeFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want byte
	}{
		{nil, 0},
		{[]string{"--ascii"}, 'a'},
		{[]string{"--binary"}, 'i'},
	} {
		if got := handlerFor[*ftp.Handler](t, "ftp", tc.args...).DefaultType; got != tc.want {
			t.Errorf("%v: DefaultType %q, want %q", tc.args, got, tc.want)
		}
	}
	_, err := registryFor(t, "--ascii", "--binary")
	if schemes.KindOf(err) != schemes.KindUsage || !strings.Contains(err.Error(), "--ascii and --binary") {
		t.Errorf("--ascii --binary: %v", err)
	}
}
