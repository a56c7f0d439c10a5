//go:build integration

package integration

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/mirror"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/nntp"
	"github.com/urlget/urlget/transport"
)

// TestNNTPPipelinedMirror mirrors the newest 1,000 articles of INN's
// benchmark group (posted by nntpBenchNumbers when missing) twice: with
// the article commands pipelined (the default) and one at a time
// (Window 1, as --no-pipeline). The two trees are equal byte for byte and
// hold every article; the pipelined run read its articles from replies
// sent ahead (its trace says so for most of them), on no more
// connections than the mirror's workers — INN's nnrpd answers pipelined
// commands in order (RFC 3977 §3.5).
func TestNNTPPipelinedMirror(t *testing.T) {
	testbed.Require(t, testbed.INN)
	nntpBenchNumbers(t)
	src := fmt.Sprintf("nntp://%s/%s", testbed.Addr(testbed.NNTPPort), nntpBenchGroup)
	run := func(window int) (map[string]string, string, time.Duration) {
		t.Helper()
		var trace strings.Builder
		var mu sync.Mutex
		h := &nntp.Handler{Max: nntpBenchArticles, Window: window}
		c := &fetch.Client{
			Registry: mustRegistry(fetch.Config{Override: nntp.Schemes(h)}),
			Dialer:   &transport.Dialer{ConnectTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second},
			Trace:    transport.NewTrace(lockedWriter{&mu, &trace}),
		}
		dst := filepath.Join(t.TempDir(), "m")
		begin := time.Now()
		sum, err := mirror.Run(context.Background(), c, src, dst, mirror.Options{Parallel: 4})
		took := time.Since(begin)
		c.CloseIdleConnections()
		if err != nil || sum.Got != nntpBenchArticles {
			t.Fatalf("window %d: summary %+v, %v", window, sum, err)
		}
		mu.Lock()
		defer mu.Unlock()
		return hostTree(t, dst, mirror.LockName), trace.String(), took
	}
	piped, ptrace, ptook := run(0)
	seq, strace, stook := run(1)
	t.Logf("pipelined %v, one command at a time %v (loopback)", ptook, stook)
	if len(piped) != nntpBenchArticles || !maps.Equal(piped, seq) {
		t.Fatalf("pipelined mirror has %d files, sequential %d; equal: %v", len(piped), len(seq), maps.Equal(piped, seq))
	}
	if n := strings.Count(ptrace, "reading the pipelined reply"); n < nntpBenchArticles*9/10 {
		t.Errorf("pipelined run: %d articles read from replies sent ahead, want most of %d", n, nntpBenchArticles)
	}
	if n := strings.Count(strace, "reading the pipelined reply"); n != 0 {
		t.Errorf("run with Window 1: %d articles read from replies sent ahead", n)
	}
	if n := strings.Count(ptrace, "> GROUP "); n > 4*(nntpBenchArticles/32+4) {
		t.Errorf("pipelined run: %d GROUP commands, want about one a batch", n)
	}
	if n := strings.Count(ptrace, "< 200 ") + strings.Count(ptrace, "< 201 "); n > 5 {
		t.Errorf("pipelined run: %d connections (greetings), want at most the 4 workers and a listing", n)
	}
}

// TestNNTPPipelinedURLs fetches the 1,000 benchmark articles as one
// urlget command of 1,000 URLs (-i), by number and by message-id
// alternately: pipelined (the default) and with --no-pipeline, the
// outputs are equal byte for byte and hold every article; the pipelined
// run read most articles from replies sent ahead (-v), the other none.
func TestNNTPPipelinedURLs(t *testing.T) {
	testbed.Require(t, testbed.INN)
	nums := nntpBenchNumbers(t)
	h := &nntp.Handler{Max: 100000}
	c := &fetch.Client{Registry: mustRegistry(fetch.Config{Override: nntp.Schemes(h)})}
	lr, err := c.List(context.Background(), fmt.Sprintf("nntp://%s/%s", testbed.Addr(testbed.NNTPPort), nntpBenchGroup))
	if err != nil {
		t.Fatal(err)
	}
	ents, err := schemes.ReadAll(lr.Listing)
	c.CloseIdleConnections()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, e := range ents {
		ids[e.Name], _ = e.Extra.Get("message_id")
	}
	var list strings.Builder
	for i, n := range nums {
		if id := ids[fmt.Sprint(n)]; i%2 == 1 && id != "" {
			fmt.Fprintf(&list, "news:%s\n", id)
		} else {
			fmt.Fprintln(&list, nntpURL(nntpBenchGroup, n))
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "urls"), []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (stdout string, piped int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, urlgetBinary(t), append([]string{"-v", "--nntp-server", testbed.Addr(testbed.NNTPPort), "-i", "urls"}, args...)...)
		cmd.Dir = dir
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("urlget %v: %v\n%s", args, err, tail(errOut.String()))
		}
		return out.String(), strings.Count(errOut.String(), "reading the pipelined reply")
	}
	piped, n := run()
	seq, m := run("--no-pipeline")
	if piped != seq || strings.Count(piped, "Benchmark article") != nntpBenchArticles {
		t.Fatalf("pipelined output (%d bytes, %d articles) differs from the sequential one (%d bytes, %d articles)",
			len(piped), strings.Count(piped, "Benchmark article"), len(seq), strings.Count(seq, "Benchmark article"))
	}
	if n < nntpBenchArticles*9/10 || m != 0 {
		t.Errorf("articles read from replies sent ahead: %d pipelined (want most of %d), %d with --no-pipeline (want 0)", n, nntpBenchArticles, m)
	}
}
