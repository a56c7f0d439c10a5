//go:build integration

package integration

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// userCounter counts the logins (USER commands) a Client's trace shows.
type userCounter struct {
	schemes.NopTrace
	users, abors atomic.Int32
}

func (u *userCounter) Sent(line string) {
	switch {
	case strings.HasPrefix(line, "USER "):
		u.users.Add(1)
	case line == "ABOR":
		u.abors.Add(1)
	}
}

// TestFTPBodyCloseKeepsLogin: on each FTP server, a 64 MiB file's body
// closed after 1 MiB stops the transfer (ABOR, then NOOP) and the same
// login then serves three more files: one USER in all.
func TestFTPBodyCloseKeepsLogin(t *testing.T) {
	for _, port := range []int{testbed.VsftpdPort, testbed.ProftpdPort, testbed.PureftpdPort} {
		t.Run(fmt.Sprint(port), func(t *testing.T) {
			tr := &userCounter{}
			c := &fetch.Client{Conns: &transport.Pool{}, Trace: tr}
			defer c.CloseIdleConnections()
			base := fmt.Sprintf("ftp://%s/", testbed.Addr(port))
			for i := range 3 {
				resp, err := c.Get(context.Background(), base+"bin/big-64M.bin")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := io.ReadFull(resp.Body, make([]byte, 1<<20)); err != nil {
					t.Fatal(err)
				}
				resp.Close()
				resp, err = c.Get(context.Background(), base+"README.txt")
				if err != nil {
					t.Fatalf("after close %d: %v", i, err)
				}
				b, err := io.ReadAll(resp.Body)
				resp.Close()
				if err != nil || string(b) != fixtureText(t, "README.txt") {
					t.Fatalf("README.txt after close %d: %v %q", i, err, b)
				}
			}
			if u, a := tr.users.Load(), tr.abors.Load(); u != 1 || a != 3 {
				t.Errorf("%d logins and %d ABOR for three closed transfers and three files, want 1 and 3", u, a)
			}
		})
	}
}
