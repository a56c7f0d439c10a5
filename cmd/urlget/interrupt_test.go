package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
)

// TestAsURLGetProcess is not a test: it is urlget, main and all, when
// TestInterrupt starts this test binary as a child process with
// URLGET_TEST_ARGS set (its arguments, a JSON list).
func TestAsURLGetProcess(t *testing.T) {
	args, ok := os.LookupEnv("URLGET_TEST_ARGS")
	if !ok {
		t.Skip("the child process of TestInterrupt")
	}
	var list []string
	if err := json.Unmarshal([]byte(args), &list); err != nil {
		t.Fatal(err)
	}
	os.Args = append([]string{"urlget"}, list...)
	main() // exits
}

// TestInterrupt runs urlget as a process against a server that sends
// part of a body and then waits, and signals it: Ctrl-C exits 130 (143
// for SIGTERM), says "interrupted" — no Go words such as "context
// canceled" —, keeps the partial copy and says how to continue it.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const sent = 1000
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000000")
		w.Write(bytes.Repeat([]byte("x"), sent))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // drip no more
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name   string
		sig    syscall.Signal
		toFile bool
		code   int
		json   bool
	}{
		{"ctrl-c, to a file", syscall.SIGINT, true, 130, false},
		{"sigterm, to a file", syscall.SIGTERM, true, 143, false},
		{"ctrl-c, to stdout", syscall.SIGINT, false, 130, false},
		{"ctrl-c, --json", syscall.SIGINT, true, 130, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dest := filepath.Join(dir, "out.bin")
			args := []string{srv.URL + "/big"}
			if tc.toFile {
				args = append([]string{"-o", dest}, args...)
			}
			if tc.json {
				args = append([]string{"--json"}, args...)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestAsURLGetProcess$")
			list, _ := json.Marshal(args)
			cmd.Env = append(os.Environ(), "URLGET_TEST_ARGS="+string(list))
			// stdout is a file, whose size can be read while the child
			// writes it.
			stdout, err := os.Create(filepath.Join(dir, "stdout"))
			if err != nil {
				t.Fatal(err)
			}
			defer stdout.Close()
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Signal once the body has begun to arrive.
			arrived := func() bool {
				name := dest + ".part"
				if !tc.toFile {
					name = stdout.Name()
				}
				st, err := os.Stat(name)
				return err == nil && st.Size() >= sent
			}
			if !await.Poll(arrived) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("no data arrived; stderr %q", stderr.String())
			}
			cmd.Process.Signal(tc.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("still running 10s after %v; stderr %q", tc.sig, stderr.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("exit %v, want %d; stderr %q", err, tc.code, stderr.String())
			}
			msg := stderr.String()
			want := "urlget: " + srv.URL + "/big: interrupted"
			if tc.toFile {
				want += "; the partial copy is kept in " + dest + ".part: continue with -C -"
			}
			if strings.TrimSpace(msg) != want {
				t.Errorf("stderr %q, want %q", msg, want)
			}
			if tc.json {
				var rep report
				b, _ := os.ReadFile(stdout.Name())
				if err := json.Unmarshal(b, &rep); err != nil || rep.Error == nil ||
					rep.Error.Message != strings.TrimPrefix(want, "urlget: ") || rep.Error.Kind != "canceled" {
					t.Errorf("--json report %s (%v), want the error %q", b, err, want)
				}
			}
			if tc.toFile {
				if st, err := os.Stat(dest + ".part"); err != nil || st.Size() != sent {
					t.Errorf("partial copy: %v, %v; want %d bytes kept", st, err, sent)
				}
				if _, err := os.Stat(dest); err == nil {
					t.Errorf("%s exists: an interrupted download was renamed into place", dest)
				}
			}
		})
	}
}
