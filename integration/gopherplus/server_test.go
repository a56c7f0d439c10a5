package gopherplus

import (
	"bufio"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// start runs a server on a loopback port over a small tree.
func start(t *testing.T) (*Server, string) {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "docs"), 0o755)
	os.WriteFile(filepath.Join(root, "docs", "a.txt"), []byte("line\n.dot\n"), 0o644)
	os.WriteFile(filepath.Join(root, "b.bin"), []byte{0, 1, 2}, 0o644)
	os.Symlink("/etc", filepath.Join(root, "outside"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &Server{Root: root, Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, Admin: "A <a@b>"}
	go s.Serve(ln)
	return s, ln.Addr().String()
}

func ask(t *testing.T, addr, req string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, req)
	b, _ := io.ReadAll(bufio.NewReader(c))
	return string(b)
}

func TestServer(t *testing.T) {
	s, addr := start(t)
	for req, want := range map[string]string{
		"/b.bin\r\n":                             "\x00\x01\x02",
		"/b.bin\t+\r\n":                          "+3\r\n\x00\x01\x02",
		"/docs\r\n":                              "0a.txt\t/docs/a.txt\t127.0.0.1\t",
		"/docs\t+\r\n":                           "+-1\r\n0a.txt",
		"/nope\r\n":                              "3'/nope' does not exist\t\terror.host\t1\r\n.\r\n",
		"/nope\t+\r\n":                           "--1\r\n1 A <a@b>\r\n'/nope' does not exist\r\n.\r\n",
		"/outside/passwd\r\n":                    "3'/outside/passwd' does not exist",
		"/../etc/passwd\r\n":                     "3",
		"/plus/stuffed.txt\t+\r\n":               "+-1\r\nbefore\r\n..\r\n...\r\n..leading dot\r\nafter\r\n.\r\n",
		"/plus/multi.txt\t+text/plain De_DE\r\n": "+22\r\nDie deutsche Ansicht.\n",
		"/plus/multi.txt\t+image/gif\r\n":        "--1\r\n1 A <a@b>\r\n",
		"/plus/about.txt\t!+ABSTRACT\r\n":        "+-1\r\n+INFO: 0About this server\t/plus/about.txt\t127.0.0.1\t",
		"/plus/form.txt\t!\r\n":                  "+-1\r\n+INFO: 0A form (+ASK)\t/plus/form.txt",
		"/plus/search\tb.bin\r\n":                "iSearch results for \"b.bin\"\t\terror.host\t1\r\n9b.bin\t/b.bin",
		"/plus\t$\r\n":                           "+-2\r\n+INFO: 0About this server",
	} {
		if got := ask(t, addr, req); !strings.HasPrefix(got, want) {
			t.Errorf("%q: got %q, want prefix %q", req, got, want)
		}
	}
	if got := ask(t, addr, "/plus/about.txt\t!+ABSTRACT\r\n"); strings.Contains(got, "+ADMIN") || !strings.Contains(got, "+ABSTRACT:\r\n The test") {
		t.Errorf("!+ABSTRACT: %q", got)
	}
	if got := ask(t, addr, "/plus/form.txt\t!\r\n"); !strings.Contains(got, "+ASK:\r\n Ask: What is your name?\tAnonymous\r\n") {
		t.Errorf("+ASK: %q", got)
	}
	got := ask(t, addr, "/plus/form.txt\t+\t1\r\n+-1\r\nAlice\r\n..x\r\n.\r\n")
	if !strings.HasPrefix(got, "+-1\r\nThanks, Alice.") {
		t.Errorf("submission reply %q", got)
	}
	if subs := s.Submissions(); len(subs) != 1 || strings.Join(subs[0].Lines, "|") != "Alice|.x" {
		t.Errorf("recorded %+v", subs)
	}
	if got := ask(t, addr, "/plus/form.txt\t+\t1\r\n+5\r\nBob\r\n"); !strings.HasPrefix(got, "+-1\r\nThanks, Bob.") {
		t.Errorf("+N submission reply %q", got)
	}
	if got := ask(t, addr, "/_forms\r\n"); strings.Count(got, "\n") != 2 {
		t.Errorf("/_forms: %q", got)
	}
}

func TestParseRequest(t *testing.T) {
	for line, want := range map[string]request{
		"sel":            {sel: "sel"},
		"sel\twords":     {sel: "sel", search: "words"},
		"sel\t+":         {sel: "sel", cmd: "+"},
		"sel\t\t!":       {sel: "sel", cmd: "!"},
		"sel\tw\t$+INFO": {sel: "sel", search: "w", cmd: "$+INFO"},
		"sel\t+\t1":      {sel: "sel", cmd: "+", data: true},
		"sel\tw\t+\t1":   {sel: "sel", search: "w", cmd: "+", data: true},
	} {
		if got := parseRequest(line); got != want {
			t.Errorf("%q: %+v, want %+v", line, got, want)
		}
	}
}
