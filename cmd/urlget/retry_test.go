package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/retryfake"
)

// retryPaths are the ways the command makes a transfer: to stdout, to a
// file (-o), each URL of an -i list, each file of a mirror. Each runs
// urlget with args on the URLs and returns its status and the bytes that
// arrived for each URL.
var retryPaths = []struct {
	name string
	urls int // servers it is given
	run  func(t *testing.T, args []string, urls []string) (code int, got []string, stderr string)
}{
	{"stdout", 1, func(t *testing.T, args, urls []string) (int, []string, string) {
		out, stderr, code := urlget(t, "", append(args, urls[0])...)
		return code, []string{out}, stderr
	}},
	{"-o", 1, func(t *testing.T, args, urls []string) (int, []string, string) {
		dest := filepath.Join(t.TempDir(), "f")
		_, stderr, code := urlget(t, "", append(args, "-o", dest, urls[0])...)
		got, _ := os.ReadFile(dest)
		return code, []string{string(got)}, stderr
	}},
	{"-i", 2, func(t *testing.T, args, urls []string) (int, []string, string) {
		dir := t.TempDir()
		list := filepath.Join(dir, "list")
		os.WriteFile(list, []byte(strings.Join(urls, "\n")+"\n"), 0o666)
		_, stderr, code := urlget(t, "", append(args, "-i", list, "-o", filepath.Join(dir, "a"), "-o", filepath.Join(dir, "b"))...)
		a, _ := os.ReadFile(filepath.Join(dir, "a"))
		b, _ := os.ReadFile(filepath.Join(dir, "b"))
		return code, []string{string(a), string(b)}, stderr
	}},
	{"mirror", 1, func(t *testing.T, args, urls []string) (int, []string, string) {
		dir := t.TempDir()
		top := strings.TrimSuffix(urls[0], "f")
		_, stderr, code := urlget(t, "", append(append([]string{"mirror"}, args...), top, dir)...)
		got, _ := os.ReadFile(filepath.Join(dir, "f"))
		return code, []string{string(got)}, stderr
	}},
}

// TestRetryMakesAtMostNPlusOneAttempts: --retry 2 is at most 3 attempts
// of each transfer on every path, counted by the servers: the connections
// of one that closes them at once, the requests a busy one (HTTP 503,
// FTP 421, both with a wait of 1 s) turns away, and the transfers one
// cuts short halfway, the later ones continuing after the bytes held
// (Range, REST) until the copy is whole. With -f the busy HTTP server's
// 503 fails a retrieval with curl's 22, a mirror's file with 5 (busy);
// without it, the last 503's page is written and the retrieval exits 0,
// as curl's does (a mirror still fails: a page is no file of the tree).
func TestRetryMakesAtMostNPlusOneAttempts(t *testing.T) {
	busyHTTP := func(t *testing.T) (string, func() int, func() []int64) {
		s := retryfake.HTTP(t, retryfake.Busy, 100)
		return s.URL, func() int { return len(s.Offsets()) }, nil
	}
	for _, tc := range []struct {
		name  string
		start func(t *testing.T) (url string, count func() int, offsets func() []int64)
		flags []string
		// code is the exit status of a retrieval and mirror of a
		// mirror's, and body what arrives, when they succeed.
		code, mirror int
		body         string
		offsets      []int64 // where the attempts started, when the server tells
	}{
		{"closing", func(t *testing.T) (string, func() int, func() []int64) {
			s := retryfake.Closing(t)
			return s.URL, s.Conns, nil
		}, nil, 5, 5, "", nil},
		{"busy http -f", busyHTTP, []string{"-f"}, 22, 5, "", nil},
		{"busy http", busyHTTP, nil, 0, 5, "busy\n", nil},
		{"busy ftp", func(t *testing.T) (string, func() int, func() []int64) {
			s := retryfake.FTP(t, retryfake.Busy, 100)
			return s.URL, s.Conns, nil
		}, nil, 5, 5, "", nil},
		{"cutting http", func(t *testing.T) (string, func() int, func() []int64) {
			s := retryfake.HTTP(t, retryfake.Cut, 2)
			return s.URL, func() int { return len(s.Offsets()) }, s.Offsets
		}, nil, 0, 0, retryfake.Body, []int64{0, 5000, 7500}},
		{"cutting ftp", func(t *testing.T) (string, func() int, func() []int64) {
			s := retryfake.FTP(t, retryfake.Cut, 2)
			return s.URL, s.Conns, s.Offsets
		}, nil, 0, 0, retryfake.Body, []int64{0, 5000, 7500}},
	} {
		for _, p := range retryPaths {
			t.Run(tc.name+"/"+p.name, func(t *testing.T) {
				t.Parallel()
				var urls []string
				var counts []func() int
				var offsets []func() []int64
				for range p.urls {
					u, c, o := tc.start(t)
					urls, counts, offsets = append(urls, u), append(counts, c), append(offsets, o)
				}
				code, got, stderr := p.run(t, append([]string{"--retry", "2", "--retry-delay", "0.01"}, tc.flags...), urls)
				want := tc.code
				if p.name == "mirror" {
					want = tc.mirror
				}
				if code != want {
					t.Fatalf("exit %d, want %d: %s", code, want, stderr)
				}
				for i := range urls {
					if n := counts[i](); n != 3 {
						t.Errorf("URL %d: %d attempts, want 3: %s", i, n, stderr)
					}
					if offsets[i] != nil && !slices.Equal(offsets[i](), tc.offsets) {
						t.Errorf("URL %d: attempts started at %v, want %v", i, offsets[i](), tc.offsets)
					}
					if want == 0 && got[i] != tc.body {
						t.Errorf("URL %d: %q arrived, want %q: %s", i, cut(got[i]), cut(tc.body), stderr)
					}
				}
			})
		}
	}
}

// TestMaxTimeIsPerAttempt: -m bounds each attempt, as curl's: with
// --retry 1 a transfer whose first connection stalls halfway succeeds on
// the second, which continues after the bytes held — on every path.
// (When -m was one budget for all attempts, the retry never had time.)
func TestMaxTimeIsPerAttempt(t *testing.T) {
	for _, p := range retryPaths {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			var urls []string
			var servers []*retryfake.Server
			for range p.urls {
				s := retryfake.HTTP(t, retryfake.Stall, 1)
				urls, servers = append(urls, s.URL), append(servers, s)
			}
			code, got, stderr := p.run(t, []string{"-m", "0.5", "--retry", "1", "--retry-delay", "0.01"}, urls)
			if code != 0 || !strings.Contains(stderr, "--max-time 0.5s expired; retrying") {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for i, s := range servers {
				if off := s.Offsets(); !slices.Equal(off, []int64{0, 5000}) || got[i] != retryfake.Body {
					t.Errorf("URL %d: attempts started at %v, %d bytes arrived", i, off, len(got[i]))
				}
			}
		})
	}
}

// TestRetryMaxTimeStopsRetrying: --retry-max-time starts no retry whose
// wait (here a busy server's Retry-After: 1) would pass it, and says so;
// a longer one lets every retry run. (-f: the 503 fails, exit 22.)
func TestRetryMaxTimeStopsRetrying(t *testing.T) {
	for _, tc := range []struct {
		limit    string
		attempts int
		note     string
	}{
		{"0.5", 1, "not retried: waiting 1s would pass --retry-max-time 0.5s"},
		{"30", 2, "retrying in 1s (1 of 1)"},
	} {
		t.Run(tc.limit, func(t *testing.T) {
			t.Parallel()
			s := retryfake.HTTP(t, retryfake.Busy, 100)
			_, stderr, code := urlget(t, "", "-f", "--retry", "1", "--retry-max-time", tc.limit, s.URL)
			if n := len(s.Offsets()); code != 22 || n != tc.attempts || !strings.Contains(stderr, tc.note) {
				t.Fatalf("exit %d, %d attempts, stderr %q; want exit 22 after %d saying %q", code, n, stderr, tc.attempts, tc.note)
			}
		})
	}
}

// cut is s shortened for a message.
func cut(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
