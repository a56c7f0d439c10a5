//go:build integration

package integration

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/transport"
)

// segmentServers are the servers of the 64 MiB fixture that serve
// ranges: the three FTP servers by REST (vsftpd over TLS too), nginx by
// Range (over TLS too).
func segmentServers() map[string]string {
	return map[string]string{
		"vsftpd":      fmt.Sprintf("ftp://%s/%s", testbed.Addr(testbed.VsftpdPort), testbed.BigFile),
		"vsftpd-ftps": fmt.Sprintf("ftps://%s/%s", testbed.Addr(testbed.VsftpdFTPSPort), testbed.BigFile),
		"proftpd":     fmt.Sprintf("ftp://%s/%s", testbed.Addr(testbed.ProftpdPort), testbed.BigFile),
		"pure-ftpd":   fmt.Sprintf("ftp://%s/%s", testbed.Addr(testbed.PureftpdPort), testbed.BigFile),
		"nginx":       fmt.Sprintf("http://%s/%s", testbed.Addr(testbed.HTTPPort), testbed.BigFile),
		"nginx-https": fmt.Sprintf("https://%s/%s", testbed.Addr(testbed.HTTPSPort), testbed.BigFile),
	}
}

// segmentTLS is the TLS configuration that trusts server's certificate.
func segmentTLS(t *testing.T, server string) *tls.Config {
	t.Helper()
	file := testbed.CACertFile()
	if server == "vsftpd-ftps" {
		file = testbed.FTPSCertFile(testbed.VsftpdFTPS)
	}
	cfg, err := transport.TLSConfig(file, false, "")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// checkName is the test bed's check of a segmentServers name.
func checkName(server string) string {
	switch server {
	case "nginx":
		return "http"
	case "nginx-https":
		return "https"
	}
	return server
}

// execURLGet is urlget bin with args, run in dir.
func execURLGet(bin, dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	return cmd
}

// TestSegments: --segments 4 of the 64 MiB fixture from each server is
// byte exact and comes over several connections; a download canceled
// after 24 MiB keeps NAME.part, and -C - fetches only what it lacks.
func TestSegments(t *testing.T) {
	for name, raw := range segmentServers() {
		t.Run(name, func(t *testing.T) {
			testbed.Require(t, checkName(name))
			// 128 MiB/s in all: on two busy cores a first connection
			// unbounded may finish its quarter before another has
			// logged in, and go on into the next quarter itself.
			c := &fetch.Client{Dialer: &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
				LimitRate: 128 << 20, TLS: segmentTLS(t, name)}
			defer c.CloseIdleConnections()
			dir := t.TempDir()
			dest := filepath.Join(dir, "big.bin")
			res, err := c.Download(context.Background(), raw, dest, fetch.DownloadOptions{Segments: 4})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := fileSHA256(t, dest); got != testbed.BigFileSHA256 {
				t.Fatalf("SHA-256 %s, want %s", got, testbed.BigFileSHA256)
			}
			if res.Segments < 2 {
				t.Errorf("Segments = %d: one connection carried it all", res.Segments)
			}

			// Interrupted after 24 MiB (at 48 MiB/s, so that a progress
			// report, every 250 ms, comes before the end), then continued.
			dest = filepath.Join(dir, "cut.bin")
			ctx, cancel := context.WithCancel(context.Background())
			slow := &fetch.Client{Dialer: c.Dialer, LimitRate: 48 << 20, TLS: c.TLS}
			defer slow.CloseIdleConnections()
			_, err = slow.Download(ctx, raw, dest, fetch.DownloadOptions{Segments: 4, Progress: func(done, _ int64) {
				if done >= 24<<20 {
					cancel()
				}
			}})
			cancel()
			var pk *fetch.PartialKept
			if !errors.As(err, &pk) {
				t.Fatalf("canceled download: %v, want the partial copy kept", err)
			}
			res, err = c.Download(context.Background(), raw, dest, fetch.DownloadOptions{Resume: true})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := fileSHA256(t, dest); got != testbed.BigFileSHA256 {
				t.Fatalf("continued: SHA-256 %s, want %s", got, testbed.BigFileSHA256)
			}
			// A connection whose range another took over may write up to a
			// read (256 KiB) past its new end: a little over what was missing.
			missing := int64(testbed.BigFileSize) - res.Offset
			if res.Offset < 24<<20 || res.Bytes < missing || res.Bytes > missing+4<<20 {
				t.Errorf("continued with %d bytes held, %d fetched; want 24 MiB held at least and only the missing %d fetched",
					res.Offset, res.Bytes, missing)
			}
			if _, err := os.Stat(dest + fetch.PartSuffix); !os.IsNotExist(err) {
				t.Errorf("%s%s left behind: %v", dest, fetch.PartSuffix, err)
			}
		})
	}
}

// TestSegmentsKilled: urlget --segments 4 killed (SIGKILL) in the middle
// of the 64 MiB file leaves a NAME.part that `-C -` completes, byte exact,
// fetching only the missing bytes (--json's bytes).
func TestSegmentsKilled(t *testing.T) {
	for _, name := range []string{"vsftpd", "nginx"} {
		t.Run(name, func(t *testing.T) {
			testbed.Require(t, checkName(name))
			raw := segmentServers()[name]
			dir := t.TempDir()
			bin := urlgetBinary(t)
			cmd := execURLGet(bin, dir, "-s", "--segments", "4", "--limit-rate", "16M", "-o", "big.bin", raw)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { cmd.Wait(); close(exited) }()
			// Killed once the record of big.bin.part (what -C - goes by)
			// holds a quarter of the file in two ranges or more: data
			// from several connections, well inside the 4 s that 64 MiB
			// take at 16 MiB/s.
			part := filepath.Join(dir, "big.bin"+fetch.PartSuffix)
			var held partHeld
			if !await.Poll(func() bool {
				select {
				case <-exited:
					return true
				default:
				}
				held = readPartHeld(part)
				return held.ranges >= 2 && held.bytes >= testbed.BigFileSize/4
			}) {
				cmd.Process.Kill()
				<-exited
				t.Fatalf("the record of %s never held a quarter of the file in two ranges (last: %+v)", part, held)
			}
			select {
			case <-exited:
				t.Fatalf("urlget ended before it could be killed (%v); the record held %+v", cmd.ProcessState, held)
			default:
			}
			cmd.Process.Signal(syscall.SIGKILL)
			<-exited
			t.Logf("killed with %d bytes held in %d ranges", held.bytes, held.ranges)
			out, err := execURLGet(bin, dir, "-s", "-C", "-", "--json", "-o", "big.bin", raw).Output()
			if err != nil {
				t.Fatalf("-C -: %v\n%s", err, out)
			}
			if got, _ := fileSHA256(t, filepath.Join(dir, "big.bin")); got != testbed.BigFileSHA256 {
				t.Fatalf("SHA-256 %s, want %s", got, testbed.BigFileSHA256)
			}
			if !strings.Contains(string(out), `"segments":`) {
				t.Errorf("--json %s: the continuation did not go in segments", out)
			}
			var bytes int64
			fmt.Sscanf(string(out)[strings.Index(string(out), `"bytes":`)+len(`"bytes":`):], "%d", &bytes)
			if bytes <= 0 || bytes >= testbed.BigFileSize-(8<<20) {
				t.Errorf("-C - fetched %d bytes of %d: the killed run's ranges were not kept", bytes, testbed.BigFileSize)
			}
		})
	}
}

// partHeld is what the record of a work file made in segments says it
// holds: its ranges and their bytes.
type partHeld struct {
	ranges int
	bytes  int64
}

// readPartHeld reads the record of the work file path, the extended
// attribute user.urlget.resume (README, "Segmented downloads": the ranges
// written, stored four times a second and only after their bytes are
// written); zero while there is none.
func readPartHeld(path string) partHeld {
	buf := make([]byte, 4<<10)
	n, err := unix.Getxattr(path, "user.urlget.resume", buf)
	if err != nil {
		return partHeld{}
	}
	var rec struct {
		Done [][2]int64 `json:"done"`
	}
	if json.Unmarshal(buf[:n], &rec) != nil {
		return partHeld{}
	}
	h := partHeld{ranges: len(rec.Done)}
	for _, r := range rec.Done {
		h.bytes += r[1] - r[0]
	}
	return h
}
