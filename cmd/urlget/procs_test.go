package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
)

// TestOneProcessorForSequentialRetrieval: the command retrieves the URLs
// of a scheme claiming schemes.OneProcessor (http) one after another at
// GOMAXPROCS 1 (what the server, in this process, sees while it answers)
// and gives the setting back afterwards; a scheme that does not claim it
// (gopher) keeps the processors, also between two http URLs; -Z,
// --segments and a GOMAXPROCS the user set keep them.
func TestOneProcessorForSequentialRetrieval(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor already")
	}
	var mu sync.Mutex
	var seen []int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, runtime.GOMAXPROCS(0))
		mu.Unlock()
		fmt.Fprint(w, "x")
	}))
	defer srv.Close()
	gopher := gopherRecorder(t, func(n int) {
		mu.Lock()
		seen = append(seen, -n) // negative: gopher's
		mu.Unlock()
	})
	oneProcessorPolicy = true
	defer func() { oneProcessorPolicy = false }()
	before := runtime.GOMAXPROCS(0)
	for _, tc := range []struct {
		env  string
		args []string
		want int
	}{
		{"", []string{srv.URL + "/a", srv.URL + "/b"}, 1},
		{"", []string{"-Z", srv.URL + "/a", srv.URL + "/b"}, before},
		{"", []string{"--segments", "2", srv.URL + "/a"}, before},
		{fmt.Sprint(before), []string{srv.URL + "/a"}, before},
		{"", []string{srv.URL + "/a", gopher, srv.URL + "/b"}, 1},
	} {
		t.Setenv("GOMAXPROCS", tc.env)
		mu.Lock()
		seen = nil
		mu.Unlock()
		args := append([]string{"-s", "-o", "/dev/null"}, tc.args...)
		if _, stderr, code := urlget(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		mu.Lock()
		for _, n := range seen {
			if n < 0 && -n != before {
				t.Errorf("%v: the gopher server saw GOMAXPROCS %d, want %d", tc.args, -n, before)
			}
			if n > 0 && n != tc.want {
				t.Errorf("%v (GOMAXPROCS=%q): the server saw GOMAXPROCS %d, want %d", tc.args, tc.env, n, tc.want)
			}
		}
		if len(seen) == 0 {
			t.Errorf("%v: no request", tc.args)
		}
		mu.Unlock()
		if got := runtime.GOMAXPROCS(0); got != before {
			t.Fatalf("%v: GOMAXPROCS %d after the run, want %d back", tc.args, got, before)
		}
	}
}

// gopherRecorder serves a gopher document on each connection and calls
// seen with GOMAXPROCS as it answers; it returns the document's URL.
func gopherRecorder(t *testing.T, seen func(int)) string {
	t.Helper()
	return "gopher://" + serveConns(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		seen(runtime.GOMAXPROCS(0))
		io.WriteString(c, "x")
	}) + "/0/doc"
}
