//go:build integration

package integration

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// scrape reads the gateway's /metrics and returns each sample (its name
// with its labels) and its value, checking the text format's lines.
func scrape(t *testing.T, base string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(base + gateway.MetricsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d", gateway.MetricsPath, resp.StatusCode)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "# HELP ") || strings.HasPrefix(line, "# TYPE ") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if i < 0 || err != nil {
			t.Fatalf("not a sample: %q", line)
		}
		out[line[:i]] = v
	}
	return out
}

// TestServeSIGTERMMidTransfer: SIGTERM while the gateway streams the test
// bed's 64 MiB file from vsftpd to a client that reads slowly. /metrics,
// scraped during the transfer, shows it holding its upstream slot; after
// the signal new connections are refused at once, the transfer goes on to
// its last byte (SHA-256 checked), and the process exits 0 within the
// grace. The access log holds the transfer's line.
func TestServeSIGTERMMidTransfer(t *testing.T) {
	testbed.Require(t, "vsftpd")
	const grace = 30 * time.Second
	p := startServe(t, "--shutdown-grace", strconv.Itoa(int(grace.Seconds())), "--log-format", "json")
	raw := fmt.Sprintf("ftp://%s/%s", testbed.Addr(testbed.VsftpdPort), testbed.BigFile)
	resp, err := http.Get(p.base + gateway.Address(raw))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d", raw, resp.StatusCode)
	}
	h := sha256.New()
	if _, err := io.CopyN(h, resp.Body, 1<<20); err != nil {
		t.Fatal(err)
	}
	m := scrape(t, p.base)
	if m["urlget_gateway_upstream_slots_in_use"] != 1 || m["urlget_gateway_requests_in_flight"] != 1 {
		t.Errorf("during the transfer: slots in use %v, requests in flight %v; want 1, 1",
			m["urlget_gateway_upstream_slots_in_use"], m["urlget_gateway_requests_in_flight"])
	}
	if r, err := http.Get(p.base + gateway.ReadyPath); err != nil || r.StatusCode != 200 {
		t.Fatalf("%s before the signal: %v %v", gateway.ReadyPath, r, err)
	} else {
		r.Body.Close()
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	signalled := time.Now()
	await.Until(t, "new connections refused", func() bool {
		c, err := net.DialTimeout("tcp", p.addr, time.Second)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	refusedAfter := time.Since(signalled)
	// Read the rest a little at a time for a while: the gateway is
	// still sending, well after the signal.
	slow := 0
	for range 20 {
		n, err := io.CopyN(h, resp.Body, 256<<10)
		slow += int(n)
		if err != nil {
			t.Fatalf("the transfer was cut %v after the signal: %v", time.Since(signalled), err)
		}
		<-time.After(25 * time.Millisecond)
	}
	select {
	case <-p.exited:
		t.Fatalf("the process ended while its transfer ran: %s", p.stderr)
	default:
	}
	n, err := io.Copy(h, resp.Body)
	total := int64(1<<20+slow) + n
	if err != nil || total != testbed.BigFileSize || hex.EncodeToString(h.Sum(nil)) != testbed.BigFileSHA256 {
		t.Fatalf("got %d bytes (%v), want the file's %d and its SHA-256", total, err, testbed.BigFileSize)
	}
	select {
	case <-p.exited:
	case <-time.After(grace + 5*time.Second - time.Since(signalled)):
		t.Fatalf("the process did not exit within the %v grace: %s", grace, p.stderr)
	}
	took := time.Since(signalled)
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d, want 0: %s", code, p.stderr)
	}
	if !strings.Contains(p.stderr.String(), "every request ended") ||
		!strings.Contains(p.stderr.String(), `"path":"`+gateway.Address(raw)+`","status":200,"bytes":`+strconv.Itoa(testbed.BigFileSize)) {
		t.Errorf("stderr:\n%s", p.stderr)
	}
	t.Logf("new connections refused %v after SIGTERM; the transfer ended whole and the process exited %v after it (grace %v)", refusedAfter, took, grace)
}
