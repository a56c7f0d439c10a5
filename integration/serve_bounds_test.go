//go:build integration

package integration

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/dirsrv"
	"github.com/urlget/urlget/integration/hostile"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// serveProcess is a running `urlget serve` of the built binary.
type serveProcess struct {
	base   string // http://127.0.0.1:PORT
	addr   string // 127.0.0.1:PORT
	pid    int
	stderr *conformance.SyncBuffer
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process ended (cmd.ProcessState)
}

// startServe runs `urlget serve --listen 127.0.0.1:0 args...`, waits for
// the address it prints, and stops it (SIGINT) when t ends.
func startServe(t *testing.T, args ...string) *serveProcess {
	t.Helper()
	return startServeEnv(t, nil, args...)
}

// startServeEnv is startServe in this process's environment changed by
// env: each NAME=VALUE set, each NAME= taken out.
func startServeEnv(t *testing.T, env []string, args ...string) *serveProcess {
	t.Helper()
	cmd := exec.Command(urlgetBinary(t), append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	if env != nil {
		cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
			name, _, _ := strings.Cut(kv, "=")
			return slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, name+"=") })
		})
		for _, e := range env {
			if !strings.HasSuffix(e, "=") {
				cmd.Env = append(cmd.Env, e)
			}
		}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{stderr: &conformance.SyncBuffer{}, cmd: cmd}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	p.exited = exited
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		l, _ := r.ReadString('\n')
		line <- l
		io.Copy(io.Discard, r)
		cmd.Wait()
		close(exited)
	}()
	select {
	case l := <-line:
		if !strings.HasPrefix(l, "serving on http://") {
			t.Fatalf("urlget serve %q printed %q; stderr: %s", args, l, p.stderr)
		}
		p.base = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(l), "serving on "), "/")
	case <-time.After(30 * time.Second):
		t.Fatalf("urlget serve %q printed no address; stderr: %s", args, p.stderr)
	}
	p.addr = strings.TrimPrefix(p.base, "http://")
	p.pid = cmd.Process.Pid
	return p
}

// fds is how many file descriptors the process holds open.
func (p *serveProcess) fds(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.pid))
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// TestServeIdleKeepAliveClosed: the 300 clients from one
// address, each making one request on a keep-alive connection and then
// going quiet. urlget serve answers the first 128 (the per-client bound),
// closes the others as soon as they are accepted, and closes each idle
// connection after its 10 s of idleness, so that its file descriptors
// come back down to where they were. (Before: every one answered, 610
// descriptors held for 60 s and more.)
func TestServeIdleKeepAliveClosed(t *testing.T) {
	p := startServe(t)
	before := p.fds(t)
	const clients = 300
	type kept struct {
		c        net.Conn
		r        *bufio.Reader
		answered time.Time
	}
	var open []kept
	refused := 0
	for range clients {
		c, err := net.Dial("tcp", p.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(10 * time.Second))
		r := bufio.NewReader(c)
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", p.addr)
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			refused++ // closed at once: no answer
			c.Close()
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Close {
			t.Fatalf("client %d: %d, Connection: close %v", len(open), resp.StatusCode, resp.Close)
		}
		open = append(open, kept{c, r, time.Now()})
	}
	held := p.fds(t)
	t.Logf("%d clients: %d answered and kept alive, %d closed at once; descriptors %d before, %d with them", clients, len(open), refused, before, held)
	if len(open) != gateway.DefaultMaxConnsPerClient || refused != clients-gateway.DefaultMaxConnsPerClient {
		t.Errorf("%d answered, %d refused; want %d answered (the per-client bound)", len(open), refused, gateway.DefaultMaxConnsPerClient)
	}
	// Each connection is now idle: the gateway must close it (EOF) at
	// DefaultIdleTimeout after its answer.
	var wg sync.WaitGroup
	took := make([]time.Duration, len(open))
	errs := make([]error, len(open))
	for i, k := range open {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.c.SetReadDeadline(k.answered.Add(gateway.DefaultIdleTimeout + 10*time.Second))
			_, err := k.r.ReadByte()
			took[i], errs[i] = time.Since(k.answered), err
		}()
	}
	wg.Wait()
	var longest time.Duration
	for i, err := range errs {
		if err != io.EOF {
			t.Errorf("connection %d: %v after %v, want EOF (closed by the gateway)", i, err, took[i])
		}
		if took[i] < gateway.DefaultIdleTimeout-time.Second || took[i] > gateway.DefaultIdleTimeout+3*time.Second {
			t.Errorf("connection %d closed %v after its answer, want about %v", i, took[i], gateway.DefaultIdleTimeout)
		}
		longest = max(longest, took[i])
	}
	// The gateway's descriptors come back down (it closes before the
	// client sees EOF; its count is read until it does, briefly).
	after := p.fds(t)
	await.Poll(func() bool { after = p.fds(t); return after <= before+2 })
	t.Logf("the longest wait for the gateway to close an idle connection: %v after its answer; descriptors %d after", longest, after)
	if after > before+2 {
		t.Errorf("%d descriptors after every client went idle, %d before", after, before)
	}
}

// TestServeSlowHostDoesNotStarve: with --max-upstream 4, eight requests
// for a server that never answers hold its share (one slot) and no more,
// and a request for gophernicus is answered meanwhile. (Before: the slow
// server took all four slots, and the other request waited until they
// timed out.)
func TestServeSlowHostDoesNotStarve(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	arrived := make(chan struct{}, 16)
	silent, err := hostile.Start(func(c *hostile.Conn) {
		arrived <- struct{}{}
		hostile.Silent(c)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	p := startServe(t, "--max-upstream", "4")
	before := p.fds(t)
	const slow = 8
	for i := range slow {
		c, err := net.Dial("tcp", p.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET /gopher/%s/1/%d HTTP/1.1\r\nHost: %s\r\n\r\n", silent.HostPort(), i, p.addr)
	}
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatalf("no request reached the silent server; stderr: %s", p.stderr)
	}
	// Every slow request's connection is in the gateway (accepted: a
	// descriptor each, and one to the silent server), so that they hold
	// or wait for slots before the other request comes. Polled: nothing
	// outside the gateway tells when it accepts.
	if !await.Poll(func() bool { return p.fds(t) >= before+slow+1 }) {
		t.Fatalf("the gateway holds %d descriptors, %d before the %d requests", p.fds(t), before, slow)
	}
	start := time.Now()
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Get(p.base + gateway.Address("gopher://"+testbed.Addr(testbed.GophernicusPort)+"/"))
	if err != nil {
		t.Fatalf("gophernicus while %d requests wait for a silent server: %v (after %v)", slow, err, time.Since(start))
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Welcome to the urlget Gopher test server") {
		t.Errorf("gophernicus: %d %s", resp.StatusCode, body)
	}
	t.Logf("gophernicus's menu in %v while %d requests waited for a silent server (%d connections to it)", time.Since(start), slow, silent.Conns())
	if n := silent.Conns(); n != 1 {
		t.Errorf("the silent server got %d connections, want its share of --max-upstream 4: 1", n)
	}
}

// TestServeProsperoLocalNeedsAllowFile: dirsrv answers an object whose
// only access method is LOCAL, naming a file of this machine. Through
// urlget serve --prospero-local it is refused (403, nothing of the file)
// unless the gateway also has --allow-file; without --prospero-local the
// method is not used at all.
func TestServeProsperoLocalNeedsAllowFile(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	secret := "a file of the gateway's machine " + t.Name() + "\n"
	path := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(path, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := gateway.Address(prosperoURL(dirsrv.LocalPrefix + filepath.ToSlash(path)))
	for _, c := range []struct {
		args   []string
		status int
	}{
		{[]string{"--prospero-local"}, http.StatusForbidden},
		{[]string{"--prospero-local", "--allow-file"}, http.StatusOK},
		{[]string{"--allow-file"}, http.StatusNotImplemented}, // LOCAL unused: no method urlget can use
	} {
		p := startServe(t, c.args...)
		resp, err := http.Get(p.base + addr)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		served := strings.Contains(string(body), secret)
		t.Logf("urlget serve %s: %d, %d bytes, the file's text in them: %v", strings.Join(c.args, " "), resp.StatusCode, len(body), served)
		if resp.StatusCode != c.status || served != (c.status == http.StatusOK) || c.status == http.StatusOK && string(body) != secret {
			t.Errorf("urlget serve %s: %d %q; want %d, the file served only with 200", strings.Join(c.args, " "), resp.StatusCode, body, c.status)
		}
	}
}
