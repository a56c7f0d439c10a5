package main

import (
	"bufio"
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
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--max-upstream", "4"}, strings.NewReader(""), pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "serving on http://127.0.0.1:") {
		t.Fatalf("first line %q, %v (stderr %s)", line, err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	base := strings.TrimSuffix(strings.TrimPrefix(line, "serving on "), "/\n")
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `<form action="/go"`) {
		t.Errorf("start page: %d %s", resp.StatusCode, body)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit %d: %s", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
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
	} {
		var stdout, stderr strings.Builder
		if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}
