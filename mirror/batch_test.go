package mirror

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// nextRecorder is the fake tree's handler that records, for each file
// fetched, the paths schemes.NextOf gave its request.
type nextRecorder struct {
	*treeHandler
	mu   sync.Mutex
	next map[string][]string
}

func (r *nextRecorder) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	var paths []string
	for _, loc := range schemes.NextOf(ctx) {
		paths = append(paths, loc.Generic().Path)
	}
	r.mu.Lock()
	r.next[req.URL.Generic().Path] = paths
	r.mu.Unlock()
	return r.treeHandler.Fetch(ctx, req)
}

// client is a Client of the tree scheme served by r, claiming caps.
func (r *nextRecorder) client(caps schemes.Caps) *fetch.Client {
	reg := schemes.NewRegistry()
	reg.Register(schemes.Scheme{Name: "tree", Handler: r, Caps: schemes.Retrieves | schemes.Lists | caps,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return schemestest.Loc{U: u}, nil }})
	return &fetch.Client{Registry: reg, RetryDelay: time.Millisecond}
}

// TestMirrorBatchesForPipelining: for a scheme that pipelines, a worker
// takes up to pipelineBatch files of a directory at once and fetches them
// in listing order, each request naming the files of the batch after it;
// for another scheme, no request names any. Every file is mirrored either
// way.
func TestMirrorBatchesForPipelining(t *testing.T) {
	const n = pipelineBatch + 36
	var files []*node
	for i := range n {
		files = append(files, fileNode(fmt.Sprintf("f%03d", i), fmt.Sprintf("article %d\n", i)))
	}
	for _, tt := range []struct {
		name string
		caps schemes.Caps
		// next is how many files the request of each file named.
		next func(i int) int
	}{
		{"pipelines", schemes.Pipelines, func(i int) int {
			end := min(i/pipelineBatch*pipelineBatch+pipelineBatch, n)
			return end - 1 - i
		}},
		{"does not", 0, func(int) int { return 0 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &nextRecorder{treeHandler: newTree(dirNode("", dirNode("g", files...))), next: map[string][]string{}}
			dst := filepath.Join(t.TempDir(), "dst")
			sum, err := RunLocator(context.Background(), r.client(tt.caps), parseTree("tree://h/g/"), dst, Options{Parallel: 1})
			if err != nil || sum.Got != n {
				t.Fatalf("summary %+v, %v", sum, err)
			}
			got := tree(t, dst)
			for i := range n {
				name := fmt.Sprintf("f%03d", i)
				if got[name] != fmt.Sprintf("article %d\n", i) {
					t.Errorf("%s holds %q", name, got[name])
				}
				next := r.next["g/"+name]
				if len(next) != tt.next(i) {
					t.Fatalf("%s named %d next, want %d: %v", name, len(next), tt.next(i), next)
				}
				for k, p := range next {
					if want := fmt.Sprintf("g/f%03d", i+1+k); p != want {
						t.Fatalf("%s named %s as next %d, want %s", name, p, k, want)
					}
				}
			}
		})
	}
}

// TestBatchesAreShares: a worker's batch is its share of the files
// waiting (n / Parallel, rounded up; at most pipelineBatch) unless its
// directory has fewer, and never crosses into another directory: 2,000
// files in 20 directories with -P 8 go out as whole directories while
// many wait, and in shares of what is left at the end, so that no worker
// idles while another fetches a directory alone.
func TestBatchesAreShares(t *testing.T) {
	e := &engine{opt: Options{Parallel: 8}, pipelines: true, files: newFileQueue()}
	for d := range 20 {
		for f := range 100 {
			e.files.push(fileJob{rel: fmt.Sprintf("d%02d/f%03d", d, f)})
		}
	}
	var sizes []int
	for e.files.n > 0 {
		var cur string
		var on bool
		share := min(pipelineBatch, (e.files.n+7)/8)
		b := e.takeFiles(&cur, &on)
		for _, j := range b {
			if filepath.Dir(j.rel) != cur {
				t.Fatalf("a batch on %s holds %s", cur, j.rel)
			}
		}
		if len(b) > share || len(b) < share && len(e.files.byDir[cur]) > 0 {
			t.Fatalf("a batch of %d with a share of %d and %d files left in %s", len(b), share, len(e.files.byDir[cur]), cur)
		}
		sizes = append(sizes, len(b))
		e.files.leave(cur, &on)
	}
	if sizes[0] != 100 || sizes[len(sizes)-1] != 1 || len(sizes) > 80 {
		t.Errorf("batches %v: want whole directories first, single files last, not many", sizes)
	}
	e.pipelines = false
	e.files.push(fileJob{rel: "a/1"})
	e.files.push(fileJob{rel: "a/2"})
	var cur string
	var on bool
	if b := e.takeFiles(&cur, &on); len(b) != 1 {
		t.Errorf("%d files in a batch of a scheme that does not pipeline", len(b))
	}
}
