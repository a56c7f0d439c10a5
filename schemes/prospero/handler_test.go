package prospero

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// textPeer answers each one-packet request by its last command line,
// with replies[line] in one packet (a missing line: no answer).
func textPeer(t *testing.T, replies map[string]string) *peer {
	return newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
		h, data, err := parseHeader(pk)
		if err != nil || h.seq != 1 {
			return
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		toks, _ := tokens(lines[len(lines)-1]) // the command, its quoting undone
		if r, ok := replies[strings.Join(toks, " ")]; ok {
			sendReply(pc, from, []byte{0x03, 0, 0}, cidOf(pk), []byte(r))
		}
	})
}

func fetchURL(t *testing.T, raw string) (*schemes.Response, *schemestest.Trace, error) {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	tr := &schemestest.Trace{}
	resp, err := (&Handler{first: 50 * time.Millisecond}).Fetch(context.Background(), &schemes.Request{URL: p, Dialer: &transport.Dialer{AllowPorts: []int{0}}, Trace: tr})
	return resp, tr, err
}

func TestResolve(t *testing.T) {
	const am = "GET-OBJECT-INFO ACCESS-METHOD ASCII "
	p := textPeer(t, map[string]string{
		// §9.2: ACCESS-METHOD alone is NOT-FOUND; #ALL gives the methods.
		am + "/pfs/about.txt 0":                           "FAILURE NOT-FOUND\n",
		"GET-OBJECT-INFO #ALL ASCII /pfs/about.txt 0":     "ATTRIBUTE OBJECT INTRINSIC SIZE ASCII 52\nATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE PROSPERO-CONTENTS '' '' '' ''\n",
		"GET-OBJECT-INFO CONTENTS ASCII /pfs/about.txt 0": "ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA Hello' from a native file served by Prospero dirsrv.\n'\n",
		am + "/pfs/readme 0": "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE LOCAL '' '' '' ''\n" +
			"ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE FTP INTERNET-D 127.0.0.1 ASCII '/x' BINARY\n" +
			"ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE AFTP INTERNET-D 127.0.0.1 ASCII '/pub/README' BINARY\n",
		am + "/pfs/moved 0": "FORWARDED INTERNET-D 127.0.0.1(1) ASCII /pfs/about.txt 0\n",
		am + "/pfs/dir 0":   "NONE-FOUND\n",
		"LIST ATTRIBUTES COMPONENTS": "LINK  L EXTERNAL ftp-readme INTERNET-D FTP.EXAMPLE.ORG ASCII '/pub/README' 0\n" +
			"ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' BINARY\n" +
			"LINK  L FILE with' space' INTERNET-D 127.0.0.1(1525) ASCII '/pfs/with space' 0\n",
		am + "/outside 0":      "FAILURE NOT-AUTHORIZED\n",
		am + "pfs/about.txt 0": "FAILURE NOT-AUTHORIZED\n",
	})
	base := "prospero://" + p.addr().String()
	// PROSPERO-CONTENTS after the #ALL retry: the bytes, de-quoted.
	resp, tr, err := fetchURL(t, base+"//pfs/about.txt")
	if err != nil {
		t.Fatalf("%v\n%s", err, tr)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "Hello from a native file served by Prospero dirsrv.\n" || !strings.Contains(tr.String(), "#ALL") {
		t.Errorf("contents %q\n%s", b, tr)
	}
	// Access methods: LOCAL skipped, FTP last, so AFTP.
	resp, tr, err = fetchURL(t, base+"//pfs/readme")
	if err != nil || resp.Resolved == nil || resp.Resolved.URL != "ftp://127.0.0.1/%2Fpub/README;type=i" {
		t.Fatalf("%+v %v\n%s", resp, err, tr)
	}
	if c := resp.Resolved.Chain; len(c) != 3 || !strings.HasPrefix(c[1], "ACCESS-METHOD AFTP") {
		t.Errorf("chain %q", c)
	}
	// A directory: its links, EXTERNAL ones as links to their URL.
	resp, tr, err = fetchURL(t, base+"//pfs/dir")
	if err != nil || resp.Listing == nil {
		t.Fatalf("%+v %v\n%s", resp, err, tr)
	}
	ents, _ := schemes.ReadAll(resp.Listing)
	// The EXTERNAL link's Locator is its prospero URL in the directory,
	// which Fetch resolves through the directory's listing.
	if len(ents) != 2 || ents[0].Kind != schemes.EntryLink || ents[0].Target != "ftp://ftp.example.org/%2Fpub/README;type=i" ||
		ents[0].Locator == nil || ents[0].Locator.String() != base+"//pfs/dir/ftp-readme" ||
		ents[1].Name != "with space" || ents[1].Locator == nil || ents[1].Locator.String() != "prospero://127.0.0.1//pfs/with%20space" {
		t.Errorf("entries %+v", ents)
	}
	// Failures: NOT-AUTHORIZED exit 4, a server that never answers: a timeout.
	if _, _, err := fetchURL(t, base+"//outside"); schemes.KindOf(err) != schemes.KindPermission ||
		!strings.Contains(err.Error(), `for the hsoname "/outside"`) || strings.Contains(err.Error(), "double slash") {
		t.Errorf("NOT-AUTHORIZED: %v", err)
	}
	// A path without the double slash asks for a relative hsoname, which
	// servers refuse: the error says what was asked and the absolute form.
	_, _, err = fetchURL(t, base+"/pfs/about.txt")
	if want := base + "//pfs/about.txt"; schemes.KindOf(err) != schemes.KindPermission ||
		!strings.Contains(err.Error(), `FAILURE NOT-AUTHORIZED for the hsoname "pfs/about.txt"`) ||
		!strings.Contains(err.Error(), "double slash: "+want+")") {
		t.Errorf("relative hsoname: %v, want the hsoname and %s", err, want)
	}
}

// TestForwardedAndParentLinks: FORWARDED leads to another server; a name
// that is no object of its own is found as a link of its parent (an
// EXTERNAL link's access method, a FILE link resolved on its own server).
func TestForwardedAndParentLinks(t *testing.T) {
	const am = "GET-OBJECT-INFO ACCESS-METHOD ASCII "
	const all = "GET-OBJECT-INFO #ALL ASCII "
	b := textPeer(t, map[string]string{
		am + "/pfs/there 0": "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE TELNET INTERNET-D h(2323) ASCII '' ''\n",
	})
	bHost := "127.0.0.1(" + strings.TrimPrefix(b.addr().String(), "127.0.0.1:") + ")"
	a := textPeer(t, map[string]string{
		am + "/pfs/moved 0":            "FORWARDED INTERNET-D " + bHost + " ASCII /pfs/there 0\n",
		am + "/pfs/root/ftp-readme 0":  "FAILURE NOT-FOUND\n",
		all + "/pfs/root/ftp-readme 0": "FAILURE NOT-FOUND\n",
		"LIST ATTRIBUTES COMPONENTS ftp-readme": "LINK  L EXTERNAL ftp-readme INTERNET-D 127.0.0.1(2121) ASCII '/README.txt' 0\n" +
			"ATTRIBUTE CACHED FIELD ACCESS-METHOD AFTP '' '' '' '' BINARY\n",
		am + "/pfs/root/far 0":            "FAILURE NOT-FOUND\n",
		all + "/pfs/root/far 0":           "FAILURE NOT-FOUND\n",
		"LIST ATTRIBUTES COMPONENTS far":  "LINK  L FILE far INTERNET-D " + bHost + " ASCII '/pfs/there' 0\n",
		am + "/pfs/root/none 0":           "FAILURE NOT-FOUND\n",
		all + "/pfs/root/none 0":          "FAILURE NOT-FOUND\n",
		"LIST ATTRIBUTES COMPONENTS none": "NONE-FOUND\n",
	})
	base := "prospero://" + a.addr().String()
	for _, tt := range []struct{ path, url string }{
		{"//pfs/moved", "telnet://h:2323/"},
		{"//pfs/root/ftp-readme", "ftp://127.0.0.1:2121/%2FREADME.txt;type=i"},
		{"//pfs/root/far", "telnet://h:2323/"},
	} {
		resp, tr, err := fetchURL(t, base+tt.path)
		if err != nil || resp.Resolved == nil || resp.Resolved.URL != tt.url {
			t.Errorf("%s: %+v %v\n%s", tt.path, resp, err, tr)
		}
	}
	if _, _, err := fetchURL(t, base+"//pfs/root/none"); schemes.KindOf(err) != schemes.KindNotFound {
		t.Errorf("no such link: %v", err)
	}
}
