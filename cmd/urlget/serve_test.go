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
		{"serve", "--shutdown-grace", "-1"},
		{"serve", "--shutdown-grace", "NaN"},
	} {
		var stdout, stderr strings.Builder
		if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}
