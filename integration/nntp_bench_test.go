//go:build integration

package integration

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/nntp"
	"github.com/urlget/urlget/transport"
)

// nntpBenchGroup receives the benchmark's articles (INN's default
// local.general, which the seeded tests do not count).
const (
	nntpBenchGroup    = "local.general"
	nntpBenchArticles = 1000
	nntpBenchSubject  = "urlget bench article"
)

// countingTrace counts the commands sent.
type countingTrace struct{ sent atomic.Int64 }

func (c *countingTrace) Sent(string)     { c.sent.Add(1) }
func (c *countingTrace) Received(string) {}
func (c *countingTrace) Info(string)     {}
func (c *countingTrace) Secret(string)   {}

// nntpBenchNumbers returns the numbers of nntpBenchArticles benchmark
// articles in nntpBenchGroup, posting the missing ones (once per stack:
// `stack.sh up` starts with a fresh spool). The benchmark's articles are
// told by their subject and their size in the overview (Extra "bytes":
// the entry's Size is -1).
func nntpBenchNumbers(b testing.TB) []int64 {
	b.Helper()
	list := func() []int64 {
		h := &nntp.Handler{Server: testbed.Addr(testbed.NNTPPort), Max: 100000}
		loc, err := fetch.DefaultRegistry().Parse("news:" + nntpBenchGroup)
		if err != nil {
			b.Fatal(err)
		}
		resp, err := h.List(context.Background(), &schemes.Request{URL: loc, Dialer: &transport.Dialer{}})
		if err != nil {
			b.Fatal(err)
		}
		entries, err := schemes.ReadAll(resp.Listing)
		if err != nil {
			b.Fatal(err)
		}
		var nums []int64
		for _, e := range entries {
			var n, size int64
			bytes, _ := e.Extra.Get("bytes")
			fmt.Sscan(bytes, &size)
			if strings.Contains(e.Title, nntpBenchSubject) && size > 0 && size < 4096 {
				fmt.Sscan(e.Name, &n)
				nums = append(nums, n)
			}
		}
		return nums
	}
	nums := list()
	if missing := nntpBenchArticles - len(nums); missing > 0 {
		p := nntpNewPoster(b)
		run := time.Now().UnixNano()
		for i := range missing {
			body := fmt.Sprintf("Benchmark article %d.\n.A line with a leading dot.\n%s\n", i, strings.Repeat("0123456789", 40))
			p.post(b, nntpBenchGroup, fmt.Sprintf("<bench-%d-%d@urlget.test>", run, i), nntpBenchSubject, body)
		}
		p.close()
		nums = list()
	}
	if len(nums) < nntpBenchArticles {
		b.Fatalf("only %d benchmark articles in %s", len(nums), nntpBenchGroup)
	}
	return nums[len(nums)-nntpBenchArticles:]
}

// BenchmarkNNTPArticles fetches articles by number (nntp://host/group/n),
// one article per iteration, cycling through 1,000 posted articles: on one
// reused connection (a transport.Pool as the requests' Conns), and with a
// new connection per article (no Conns: greeting, CAPABILITIES, GROUP,
// ARTICLE, QUIT each time). `-benchtime 1000x` fetches each article once; see bench/nntp.sh.
// Besides ns/op (time per article) it reports commands and connections
// per article.
func BenchmarkNNTPArticles(b *testing.B) {
	testbed.Require(b, testbed.INN)
	nums := nntpBenchNumbers(b)
	for _, bc := range []struct {
		name  string
		conns *transport.Pool
	}{{"one-connection", &transport.Pool{}}, {"connection-per-article", nil}} {
		b.Run(bc.name, func(b *testing.B) {
			h := &nntp.Handler{}
			var conns schemes.Conns
			if bc.conns != nil {
				conns = bc.conns
				defer bc.conns.CloseIdle()
			}
			d := conformance.NewCountingDialer()
			tr := &countingTrace{}
			reg := fetch.DefaultRegistry()
			locs := make([]schemes.Locator, len(nums))
			for i, n := range nums {
				loc, err := reg.Parse(nntpURL(nntpBenchGroup, n))
				if err != nil {
					b.Fatal(err)
				}
				locs[i] = loc
			}
			var bytes int64
			i := 0
			for b.Loop() {
				resp, err := h.Fetch(context.Background(), &schemes.Request{URL: locs[i%len(locs)], Dialer: d, Conns: conns, Trace: tr})
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || n < 400 {
					b.Fatalf("article %d: %d bytes, %v", nums[i%len(nums)], n, err)
				}
				bytes += n
				i++
			}
			b.ReportMetric(float64(tr.sent.Load())/float64(i), "cmds/article")
			b.ReportMetric(float64(d.Dials.Load())/float64(i), "conns/article")
			b.SetBytes(bytes / int64(i))
		})
	}
}
