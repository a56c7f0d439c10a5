//go:build integration

package integration

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
)

// TestExitCodesBesideCurl runs curl and urlget with the same command line
// on the same failure and checks each exit status against README's "Exit
// status" table: urlget's own code, and the curl code a script written
// for curl knows the failure by. A local write error is 23 for both.
func TestExitCodesBesideCurl(t *testing.T) {
	http, ftp := "http://"+testbed.Addr(testbed.HTTPPort), "ftp://"+testbed.Addr(testbed.VsftpdPort)
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	closed := func() string { // a port nothing listens on
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}()
	silent, err := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		var held []net.Conn
		for {
			c, err := silent.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	for _, tc := range []struct {
		name         string
		args         []string
		urlget, curl int
	}{
		{"local: under /proc, http", []string{"-s", "-o", "/proc/urlget-x", http + "/README.txt"}, 23, 23},
		{"local: under /proc, ftp", []string{"-s", "-o", "/proc/urlget-x", ftp + "/README.txt"}, 23, 23},
		{"local: full disk", []string{"-s", "-o", "/dev/full", http + "/bin/small.bin"}, 23, 23},
		{"local: parent is a file", []string{"-s", "-o", file + "/x", http + "/README.txt"}, 23, 23},
		{"local: no such directory", []string{"-s", "-o", filepath.Join(file+".d", "x"), ftp + "/README.txt"}, 23, 23},
		{"local: -o is a directory", []string{"-s", "-o", filepath.Dir(file), http + "/README.txt"}, 23, 23},
		{"not found, http -f", []string{"-sf", "-o", "x", http + "/no-such-file"}, 22, 22},
		{"not found, http --fail-with-body", []string{"-s", "--fail-with-body", "-o", "x", http + "/no-such-file"}, 22, 22},
		{"not found, http", []string{"-s", "-o", "x", http + "/no-such-file"}, 0, 0},
		{"not found, ftp", []string{"-s", "-o", "x", ftp + "/no-such-file"}, 3, 78},
		{"connection refused", []string{"-s", "-o", "x", "http://" + closed + "/"}, 5, 7},
		{"timeout", []string{"-s", "-m", "1", "-o", "x", "http://" + silent.Addr().String() + "/"}, 5, 28},
		{"untrusted certificate", []string{"-s", "-o", "x", "https://" + testbed.Addr(testbed.HTTPSPort) + "/README.txt"}, 7, 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			begin := time.Now()
			c, u := both(t, tc.args...)
			if c.code != tc.curl {
				t.Errorf("curl %q exits %d, want %d (the README's curl column is wrong)", tc.args, c.code, tc.curl)
			}
			if u.code != tc.urlget {
				t.Errorf("urlget %q exits %d, want %d; stderr %q", tc.args, u.code, tc.urlget, u.stderr)
			}
			if el := time.Since(begin); el > 20*time.Second {
				t.Errorf("took %v", el)
			}
		})
	}
}
