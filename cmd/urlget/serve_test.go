package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServe starts `urlget serve` on a free loopback port, reads the
// address it prints, asks for the start page, and stops it as Ctrl-C
// would (its context ends).
func TestServe(t *testing.T) {
	s := startServing(t, "--max-upstream", "4")
	resp, err := http.Get(s.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `<form action="/go"`) {
		t.Errorf("start page: %d %s", resp.StatusCode, body)
	}
	s.stop()
	if c, _ := s.exit(t, 10*time.Second); c != 0 {
		t.Errorf("exit %d: %s", c, s.stderr)
	}
}

func TestServeRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "http://127.0.0.1/"},
		{"serve", "-o", "x"},
		{"serve", "--max-upstream", "0"},
		{"serve", "--max-upstream", "4", "--max-upstream-per-host", "5"},
		{"serve", "--max-upstream-per-host", "-1"},
		{"serve", "--max-conns-per-client", "0"},
		{"serve", "--log-format", "xml"},
		{"serve", "--host", ""},
		{"serve", "--host", "a/b"},
		{"serve", "--shutdown-grace", "-1"},
		{"serve", "--shutdown-grace", "NaN"},
	} {
		var stdout, stderr strings.Builder
		if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}

// TestServeHost: --host adds a name the gateway answers to, as the Host
// header sends it; another name is still refused (421).
func TestServeHost(t *testing.T) {
	s := startServing(t, "--host", "gateway.example", "--host", "GW.example:8443")
	for host, want := range map[string]int{"gateway.example": 200, "gw.example:8443": 200, "gateway.example:8070": 421, "other.example": 421} {
		req, err := http.NewRequest("GET", s.base+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
}
