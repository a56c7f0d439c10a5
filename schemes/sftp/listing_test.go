package sftp

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// sftpServer is an in-process SSH server whose session channels run
// pkg/sftp's server on the local file system; it opens at most
// maxChannels of them (sshd's MaxSessions), refusing the others.
type sftpServer struct {
	maxChannels int32
	opened      atomic.Int32
}

// session logs in to srv and returns a session of the handler's, with
// the trace written to trace.
func (srv *sftpServer) session(t *testing.T, trace *strings.Builder) *session {
	t.Helper()
	hostKey, _ := newSigner(t)
	cfg := &ssh.ServerConfig{NoClientAuth: true}
	cfg.AddHostKey(hostKey)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		sc, err := ln.Accept()
		if err != nil {
			return
		}
		defer sc.Close()
		conn, chans, reqs, err := ssh.NewServerConn(sc, cfg)
		if err != nil {
			return
		}
		go ssh.DiscardRequests(reqs)
		for nc := range chans {
			if nc.ChannelType() != "session" || srv.opened.Add(1) > srv.maxChannels {
				nc.Reject(ssh.Prohibited, "no more sessions")
				continue
			}
			ch, creqs, err := nc.Accept()
			if err != nil {
				continue
			}
			go func() {
				for r := range creqs {
					ok := r.Type == "subsystem" && string(r.Payload[4:]) == "sftp"
					r.Reply(ok, nil)
					if ok {
						go func() {
							if s, err := sftp.NewServer(ch); err == nil {
								s.Serve()
							}
							ch.Close()
						}()
					}
				}
			}()
		}
		conn.Wait()
	}()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c, chans, reqs, err := ssh.NewClientConn(nc, "host.test:22", &ssh.ClientConfig{User: "u",
		HostKeyCallback: ssh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	client := ssh.NewClient(c, chans, reqs)
	sc, err := sftp.NewClient(client)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{nc: nc, ssh: client, sftp: sc, dead: make(chan struct{}), tr: transport.NewTrace(trace)}
	go func() { client.Wait(); close(s.dead) }()
	t.Cleanup(func() { s.Close() })
	return s
}

// TestListDir lists a directory of 250 files and one subdirectory over
// a second sftp channel, and, from a server that opens one channel only
// (sshd's MaxSessions 1), through pkg/sftp: the same entries.
func TestListDir(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 250 {
		name := fmt.Sprintf("f%03d", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("x", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprintf("%s file %d", name, i))
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	want = append(want, "sub dir -1")
	sort.Strings(want)
	for _, tc := range []struct {
		name     string
		channels int32
		trace    string
	}{
		{"second channel", 2, ""},
		{"one channel only", 1, "no second sftp channel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var trace strings.Builder
			s := (&sftpServer{maxChannels: tc.channels}).session(t, &trace)
			loc, err := Parse(mustParse(t, "sftp://u@host.test"+filepath.ToSlash(dir)+"/"))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := (&Handler{}).listDir(t.Context(), s, loc, dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for e, err := range schemes.Entries(resp.Listing) {
				if err != nil {
					t.Fatal(err)
				}
				kind := "file"
				if e.Kind == schemes.EntryDir {
					kind = "dir"
				}
				got = append(got, fmt.Sprintf("%s %s %d", e.Name, kind, e.Size))
			}
			resp.Listing.Close()
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got %d entries, want %d:\n%s", len(got), len(want), strings.Join(got[:min(5, len(got))], "\n"))
			}
			if second := !strings.Contains(trace.String(), "no second sftp channel"); second != (tc.channels > 1) {
				t.Errorf("listed over a second channel: %v, want %v", second, tc.channels > 1)
			}
			if !strings.Contains(trace.String(), tc.trace) {
				t.Errorf("trace lacks %q:\n%s", tc.trace, trace.String())
			}
		})
	}
}
