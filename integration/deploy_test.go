//go:build integration

package integration

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// deployImage is the tag TestDeployImage builds deploy/Dockerfile as.
const deployImage = "urlget-deploy-test:latest"

// docker runs docker with args, within limit, and returns its output.
func docker(t *testing.T, limit time.Duration, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	out, err := exec.CommandContext(ctx, "docker", args...).CombinedOutput()
	return string(out), err
}

// TestDeployImage builds the image of deploy/ (deploy/build.sh: a static
// binary on scratch) and runs it as a container on the host's network:
// /healthz and /readyz answer, a gophernicus menu and a vsftpd file come
// through it, its access log is JSON on stderr, and docker stop
// (SIGTERM) ends it with exit 0.
func TestDeployImage(t *testing.T) {
	testbed.Require(t, testbed.Gophernicus)
	testbed.Require(t, testbed.Vsftpd)
	if _, err := exec.LookPath("docker"); err != nil {
		if testbed.InCI() {
			t.Fatal("docker is missing")
		}
		t.Skip("docker is missing")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..")
	start := time.Now()
	build := exec.Command("bash", filepath.Join(root, "deploy", "build.sh"), deployImage)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("deploy/build.sh: %v\n%s", err, out)
	}
	built := time.Since(start)
	size, _ := docker(t, time.Minute, "image", "inspect", "-f", "{{.Size}}", deployImage)
	// A free port on the host's loopback for the container's gateway.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	name := fmt.Sprintf("urlget-deploy-test-%d", os.Getpid())
	if out, err := docker(t, time.Minute, "run", "-d", "--name", name, "--network", "host", deployImage, "--listen", addr, "--log-format", "json"); err != nil {
		t.Fatalf("docker run: %v\n%s", err, out)
	}
	t.Cleanup(func() { docker(t, time.Minute, "rm", "-f", name) })
	base := "http://" + addr
	get := func(path string) (int, string, error) {
		resp, err := http.Get(base + path)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	await.Until(t, "the container's /healthz", func() bool {
		st, body, err := get(gateway.HealthPath)
		return err == nil && st == 200 && body == "ok\n"
	})
	if st, body, err := get(gateway.ReadyPath); err != nil || st != 200 {
		t.Errorf("%s: %d %q %v", gateway.ReadyPath, st, body, err)
	}
	menu := fmt.Sprintf("gopher://%s/1/", testbed.Addr(testbed.GophernicusPort))
	if st, body, err := get(gateway.Address(menu)); err != nil || st != 200 || !strings.Contains(body, "Welcome to the urlget Gopher test server") {
		t.Errorf("%s through the container: %d %v\n%s", menu, st, err, body)
	}
	doc := fmt.Sprintf("ftp://%s/bin/small.bin", testbed.Addr(testbed.VsftpdPort))
	if st, body, err := get(gateway.Address(doc)); err != nil || st != 200 || body != string(testbed.SmallBin()) {
		t.Errorf("%s through the container: %d %v, %d bytes", doc, st, err, len(body))
	}
	if st, body, err := get(gateway.MetricsPath); err != nil || st != 200 || !strings.Contains(body, `urlget_gateway_requests_total{scheme="ftp",status="2xx"} 1`) {
		t.Errorf("%s: %d %v\n%s", gateway.MetricsPath, st, err, body)
	}
	stopped := time.Now()
	if out, err := docker(t, time.Minute, "stop", name); err != nil {
		t.Fatalf("docker stop: %v\n%s", err, out)
	}
	took := time.Since(stopped)
	if out, err := docker(t, time.Minute, "inspect", "-f", "{{.State.ExitCode}}", name); err != nil || strings.TrimSpace(out) != "0" {
		t.Errorf("exit code %q, %v; want 0", out, err)
	}
	logs, _ := docker(t, time.Minute, "logs", name)
	if !strings.Contains(logs, `"path":"`+gateway.Address(doc)+`","status":200,"bytes":256,`) || !strings.Contains(logs, "every request ended") {
		t.Errorf("the container's log:\n%s", logs)
	}
	t.Logf("image built in %v (%s bytes); docker stop took %v", built.Round(time.Millisecond), strings.TrimSpace(size), took.Round(time.Millisecond))
}
