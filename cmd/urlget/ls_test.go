package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lsReport is the --json object of one listed URL.
type lsReport struct {
	URL     string
	Entries []struct {
		Name, Title, Kind, URL, Target string
		Size                           *int64
		Extra                          map[string]string
	}
	Error *struct{ Kind, Message string }
}

func lsJSON(t *testing.T, args ...string) lsReport {
	t.Helper()
	out, stderr, code := urlget(t, "", append([]string{"ls", "--json"}, args...)...)
	var rep lsReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("ls --json %v: exit %d, stdout %q, stderr %q", args, code, out, stderr)
	}
	return rep
}

// TestLsFileTree: ls lists a file: directory, with and without -l, and
// --json gives every entry, the symbolic link included, its url.
func TestLsFileTree(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("hello"), 0o644)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.Symlink("f.txt", filepath.Join(dir, "ln"))
	url := "file://" + dir + "/"
	out, stderr, code := urlget(t, "", "ls", url)
	if lines := strings.Fields(out); code != 0 || len(lines) != 3 || !contains(lines, "f.txt") || !contains(lines, "d/") || !contains(lines, "ln") {
		t.Fatalf("ls: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	for _, flag := range []string{"-l", "--long"} {
		out, _, code = urlget(t, "", "ls", flag, url)
		if code != 0 || !strings.Contains(out, "-            5 ") || !strings.Contains(out, " ln -> f.txt\n") || !strings.Contains(out, " d/\n") {
			t.Errorf("ls %s: exit %d, %q", flag, code, out)
		}
	}
	rep := lsJSON(t, url)
	if len(rep.Entries) != 3 || rep.Error != nil {
		t.Fatalf("--json: %+v", rep)
	}
	for _, e := range rep.Entries {
		if want := "file://" + dir + "/" + e.Name; e.URL != want && e.URL != want+"/" {
			t.Errorf("entry %s: url %q, want %q", e.Name, e.URL, want)
		}
	}
	// A file is no container: a usage error naming it.
	if _, stderr, code := urlget(t, "", "ls", url+"f.txt"); code != 2 || !strings.Contains(stderr, "not a directory") {
		t.Errorf("ls of a file: exit %d, %q", code, stderr)
	}
}

// TestLsRefusesOutputFlags: a listing goes to stdout; the flags that
// name an output or a plan are usage errors, and -l after "--" is a URL.
func TestLsRefusesOutputFlags(t *testing.T) {
	dir := "file://" + t.TempDir() + "/"
	for _, args := range [][]string{{"-o", "x"}, {"-O"}, {"--output-dir", "x"}, {"-C", "-"}, {"--explain"}, {"-I"}} {
		_, stderr, code := urlget(t, "", append(append([]string{"ls"}, args...), dir)...)
		if code != 2 || !strings.Contains(stderr, "is not an ls flag") {
			t.Errorf("ls %v: exit %d, %q", args, code, stderr)
		}
	}
	if got := lsArgs([]string{"-l", "--", "-l"}); got[0] != "--long" || got[2] != "-l" {
		t.Errorf("lsArgs = %q", got)
	}
	if _, _, code := urlget(t, "", "ls"); code != 2 {
		t.Errorf("ls without a URL: exit %d, want 2", code)
	}
}

// nginxIndex is an index page as nginx's autoindex writes it.
const nginxIndex = `<html>
<head><title>Index of /d/</title></head>
<body>
<h1>Index of /d/</h1><hr><pre><a href="../">../</a>
<a href="sub/">sub/</a>                                               02-Jan-2024 03:04                   -
<a href="a%20b.txt">a b.txt</a>                                            02-Jan-2024 03:04                  12
</pre><hr></body>
</html>
`

// TestLsHTTPIndexPage: `urlget URL` of an index page prints the page (a
// document); `urlget ls URL` lists it, with sizes, times and urls.
func TestLsHTTPIndexPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, nginxIndex)
	}))
	defer srv.Close()
	url := srv.URL + "/d/"
	if out, _, code := urlget(t, "", url); code != 0 || out != nginxIndex {
		t.Errorf("urlget URL: exit %d, want the page itself, got %q", code, out)
	}
	out, stderr, code := urlget(t, "", "ls", "-l", url)
	want := "d            - 2024-01-02 03:04 sub/\n-           12 2024-01-02 03:04 a b.txt\n"
	if code != 0 || out != want {
		t.Errorf("ls -l: exit %d (%s)\n%s\nwant\n%s", code, stderr, out, want)
	}
	rep := lsJSON(t, url)
	if len(rep.Entries) != 2 || rep.Entries[0].URL != url+"sub/" || rep.Entries[1].URL != url+"a%20b.txt" ||
		rep.Entries[1].Size == nil || *rep.Entries[1].Size != 12 {
		t.Errorf("--json: %+v", rep)
	}
}

// fakeNNTP serves canned replies, one a command line, on 127.0.0.1 and
// returns its host:port; other commands get 500.
func fakeNNTP(t *testing.T, replies map[string]string) string {
	return serveConns(t, func(c net.Conn) {
		fmt.Fprint(c, "200 fake news server ready\r\n")
		sc := bufio.NewScanner(c)
		for sc.Scan() {
			cmd := sc.Text()
			if cmd == "QUIT" {
				fmt.Fprint(c, "205 bye\r\n")
				return
			}
			r, ok := replies[cmd]
			if !ok {
				r = "500 unknown command\r\n"
			}
			fmt.Fprint(c, r)
		}
	})
}

// TestLsNNTP: nntp://host/ lists the server's groups (LIST ACTIVE), each
// with its nntp URL on that server; a group's overview shows each
// article's bytes with -l, and its url in --json.
func TestLsNNTP(t *testing.T) {
	addr := fakeNNTP(t, map[string]string{
		"CAPABILITIES":     "101 caps\r\nVERSION 2\r\nREADER\r\nOVER\r\nLIST ACTIVE\r\n.\r\n",
		"LIST ACTIVE":      "215 groups\r\nlocal.test 0000000002 0000000001 y\r\nlocal.misc 0000000000 0000000001 n\r\n.\r\n",
		"GROUP local.test": "211 2 1 2 local.test\r\n",
		"OVER 1-2": "224 overview\r\n" +
			"1\tHello\ta@b.example\tSat, 21 Nov 2026 05:37:35 +0000\t<1@x>\t\t553\t6\r\n" +
			"2\tRe: Hello\tc@d.example\tSat, 21 Nov 2026 06:00:00 +0000\t<2@x>\t<1@x>\t611\t4\r\n.\r\n",
	})
	server := "nntp://" + addr + "/"
	out, stderr, code := urlget(t, "", "ls", server)
	want := "local.test/\nlocal.misc/\n"
	if code != 0 || out != want {
		t.Errorf("ls %s: exit %d (%s)\n%s\nwant\n%s", server, code, stderr, out, want)
	}
	rep := lsJSON(t, server)
	if len(rep.Entries) != 2 || rep.Entries[0].Name != "local.test" || rep.Entries[0].URL != server+"local.test" ||
		rep.Entries[0].Extra["articles"] != "2" {
		t.Errorf("--json %s: %+v", server, rep)
	}
	out, stderr, code = urlget(t, "", "ls", "-l", server+"local.test")
	want = "-          553 2026-11-21 05:37 Hello\n-          611 2026-11-21 06:00 Re: Hello\n"
	if code != 0 || out != want {
		t.Errorf("ls -l group: exit %d (%s)\n%s\nwant\n%s", code, stderr, out, want)
	}
	rep = lsJSON(t, server+"local.test")
	if len(rep.Entries) != 2 || rep.Entries[1].URL != server+"local.test/2" || rep.Entries[1].Size != nil || rep.Entries[1].Extra["bytes"] != "611" {
		t.Errorf("--json group: %+v", rep)
	}
}
