//go:build integration

package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// TestHTTPPipelinedList: 60 small files of one nginx fetched by a list of
// URLs (-i), http or https, go on one connection, their GETs pipelined —
// nginx's own log marks the requests it read with the one before ($pipe
// "p") — and land whole; with --no-pipeline they go on one connection
// too, none pipelined. The requests are told from other clients' by the address
// urlget dials from (testbed.ClientIP, --interface).
func TestHTTPPipelinedList(t *testing.T) {
	testbed.Require(t, testbed.Nginx)
	const files = 60
	list := func(scheme string, port int) string {
		var b strings.Builder
		for i := 1; i <= files; i++ {
			fmt.Fprintf(&b, "%s://%s/many/file-%04d.txt\n", scheme, testbed.Addr(port), i)
		}
		return b.String()
	}
	for _, tt := range []struct {
		name      string
		list      string
		args      []string
		pipelined func(n int) bool
	}{
		{"pipelined", list("http", testbed.HTTPPort), nil, func(n int) bool { return n >= files/2 }},
		{"https, pipelined", list("https", testbed.HTTPSPort), []string{"--cacert", testbed.CACertFile()}, func(n int) bool { return n >= files/2 }},
		{"--no-pipeline", list("http", testbed.HTTPPort), []string{"--no-pipeline"}, func(n int) bool { return n == 0 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			listFile := filepath.Join(dir, "list")
			os.WriteFile(listFile, []byte(tt.list), 0o644)
			out := filepath.Join(dir, "out")
			off := nginxSettled(t)
			args := append([]string{"-s", "-O", "--output-dir", out, "--interface", testbed.ClientIP.String(), "-i", listFile}, tt.args...)
			if r := runURLGet(t, dir, args...); r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for i := 1; i <= files; i++ {
				name := fmt.Sprintf("file-%04d.txt", i)
				got, err := os.ReadFile(filepath.Join(out, name))
				want, werr := os.ReadFile(filepath.Join(testbed.FixtureDir(), "many", name))
				if err != nil || werr != nil || string(got) != string(want) {
					t.Fatalf("%s: %q (%v), want %q (%v)", name, got, err, want, werr)
				}
			}
			var lines []string
			await.Until(t, "nginx logging the list's requests", func() bool {
				lines = nginxLinesFrom(t, off, testbed.ClientIP.String())
				return len(lines) >= files
			})
			conns, piped := map[string]bool{}, 0
			for _, l := range lines {
				// ADDR HOST:PORT "USER" "GET /many/f HTTP/1.1" 200 BYTES CONNECTION PIPE
				f := strings.Fields(l)
				if len(f) < 9 || f[6] != "200" {
					t.Fatalf("log line %q", l)
				}
				conns[f[len(f)-2]] = true
				if f[len(f)-1] == "p" {
					piped++
				}
			}
			if len(lines) != files || len(conns) != 1 || !tt.pipelined(piped) {
				t.Errorf("%d requests on %d connections, %d pipelined:\n%s", len(lines), len(conns), piped, strings.Join(lines, "\n"))
			}
		})
	}
}

// nginxLinesFrom are the lines nginx logged since offset for requests
// from addr.
func nginxLinesFrom(t *testing.T, offset int64, addr string) []string {
	t.Helper()
	b, err := testbed.ReadProtocolLogSince(testbed.Nginx, offset)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, addr+" ") {
			out = append(out, l)
		}
	}
	return out
}
