package mirror

// fileQueue holds the files waiting to be fetched, by directory. A worker
// keeps to one directory while it has files, and a worker that needs a
// new one takes the directory with the most files that no other worker is
// on: each connection then changes directory about once per directory
// (FTP: a CWD or a few) rather than at every file, as a single queue
// shared by all the workers would make it.
type fileQueue struct {
	byDir   map[string][]fileJob
	order   []string       // directories with files waiting, in the order they came
	workers map[string]int // workers on each directory
	n       int            // files waiting
}

func newFileQueue() *fileQueue {
	return &fileQueue{byDir: map[string][]fileJob{}, workers: map[string]int{}}
}

// push adds a file.
func (q *fileQueue) push(j fileJob) {
	d := dir(j.rel)
	if len(q.byDir[d]) == 0 {
		q.order = append(q.order, d)
	}
	q.byDir[d] = append(q.byDir[d], j)
	q.n++
}

// pop takes the next file for a worker on the directory *cur ("" and
// none both mean the top), moving it to another directory when its own
// has none left. ok is false when no file waits.
func (q *fileQueue) pop(cur *string, on *bool) (j fileJob, ok bool) {
	if q.n == 0 {
		return fileJob{}, false
	}
	d := *cur
	if !*on || len(q.byDir[d]) == 0 {
		if *on {
			q.workers[d]--
		}
		d = q.pick()
		q.workers[d]++
		*cur, *on = d, true
	}
	l := q.byDir[d]
	j, q.byDir[d] = l[0], l[1:]
	q.n--
	if len(q.byDir[d]) == 0 {
		delete(q.byDir, d)
		for i, x := range q.order {
			if x == d {
				q.order = append(q.order[:i], q.order[i+1:]...)
				break
			}
		}
	}
	return j, true
}

// leave says a worker left its directory (it ends, or turns to a listing).
func (q *fileQueue) leave(cur string, on *bool) {
	if *on {
		q.workers[cur]--
		*on = false
	}
}

// pick is the directory a worker in need of one should take: the first
// with no worker that has the most files, else the one with the most
// files per worker.
func (q *fileQueue) pick() string {
	best, bestScore := "", -1.0
	for _, d := range q.order {
		score := float64(len(q.byDir[d])) / float64(1+q.workers[d])
		if q.workers[d] == 0 {
			score += 1e9 // a directory nobody works on first
		}
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	return best
}
