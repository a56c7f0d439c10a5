package mirror

import (
	"context"
	"fmt"
	"testing"
)

// queued is a fileJob for the file name in the directory d.
func queued(d, name string) fileJob { return fileJob{rel: join(d, name), reason: "new"} }

// pushDir queues n files of the directory d.
func pushDir(q *fileQueue, d string, n int) {
	for i := range n {
		q.push(queued(d, fmt.Sprintf("f%03d", i)))
	}
}

// TestFileQueuePicksOldest: a worker in need of a directory takes the
// oldest that no worker is on — a directory left halfway (its worker
// turned to a listing) before a fresh one with more files — and the slot
// of a file taken lets go of its job.
func TestFileQueuePicksOldest(t *testing.T) {
	q := newFileQueue()
	pushDir(q, "a", 10)
	var cur string
	var on bool
	for range 3 {
		q.pop(&cur, &on)
	}
	arr := q.byDir["a"][:1:1] // the slot the next pop takes
	q.leave(cur, &on)
	pushDir(q, "b", 50)
	var cur2 string
	var on2 bool
	j, ok := q.pop(&cur2, &on2)
	if !ok || cur2 != "a" || j.rel != "a/f003" {
		t.Fatalf("took %q from %q, want a/f003 from the directory left halfway", j.rel, cur2)
	}
	if arr[0].rel != "" || arr[0].reason != "" {
		t.Errorf("the slot of a file taken still holds %+v", arr[0])
	}
	// A second worker goes where nobody is: b.
	var cur3 string
	var on3 bool
	if j, _ := q.pop(&cur3, &on3); cur3 != "b" {
		t.Errorf("second worker took %q from %q, want b", j.rel, cur3)
	}
	q.leave(cur2, &on2)
	q.leave(cur3, &on3)
	if len(q.workers) != 0 {
		t.Errorf("workers %v after every worker left", q.workers)
	}
}

// TestFileQueueRemnantsBounded: on a tree larger than the queue, with
// workers that leave their directory now and then (to list one), the
// directories waiting stay about as many as the queue holds whole ones;
// they grew with the tree when a fresh directory won over a remnant.
func TestFileQueueRemnantsBounded(t *testing.T) {
	const workers, perDir, bound = 8, 100, 2048
	q := newFileQueue()
	cur := make([]string, workers)
	on := make([]bool, workers)
	dirs, most := 0, 0
	for step := 0; dirs < 1000 || q.n > 0; step++ {
		for q.n < bound/2 && dirs < 1000 {
			pushDir(q, fmt.Sprintf("d%04d", dirs), perDir)
			dirs++
		}
		w := step % workers
		if step%37 == 0 {
			q.leave(cur[w], &on[w]) // off to a listing
			continue
		}
		q.pop(&cur[w], &on[w])
		most = max(most, len(q.order))
	}
	if limit := bound/2/perDir + 2*workers; most > limit {
		t.Errorf("up to %d directories waiting, want at most %d", most, limit)
	}
	if len(q.byDir) != 0 || len(q.order) != 0 {
		t.Errorf("%d directories left in an empty queue", len(q.order))
	}
}

// TestMirrorListingsNotHeld: a tree larger than the file queue, of
// directories smaller than half of it, is walked without a listing ever
// waiting for room (a worker waiting there transfers nothing); before, a
// listing started whenever the queue was not full and was held for room
// over and over.
func TestMirrorListingsNotHeld(t *testing.T) {
	defer func(n int) { maxQueued = n }(maxQueued)
	maxQueued = 20
	root := dirNode("")
	for i := range 40 {
		root.children = append(root.children, manyFiles(fmt.Sprintf("d%02d", i), 5))
	}
	h := newTree(root)
	dst := t.TempDir()
	l, err := openLocal(dst, LockName)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	ev := &events{}
	e := newEngine(h.client(), parseTree("tree://h/"), l, Options{Parallel: 4, Events: ev.add})
	e.walkAndTransfer(context.Background())
	if e.sum.Got != 200 || e.sum.Errors != 0 {
		t.Fatalf("summary %+v\n%s", e.sum, ev)
	}
	if e.held != 0 {
		t.Errorf("listings held %d times for room in the queue", e.held)
	}
}
