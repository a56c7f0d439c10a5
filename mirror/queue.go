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
			q.unwork(d)
		}
		d = q.pick()
		q.workers[d]++
		*cur, *on = d, true
	}
	l := q.byDir[d]
	j = l[0]
	// The slot lets go of the job (its entry, URL and listing line):
	// the array stays until the directory's last file is taken.
	l[0] = fileJob{}
	q.byDir[d] = l[1:]
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
		q.unwork(cur)
		*on = false
	}
}

// unwork takes a worker off the directory d; a directory none works on
// leaves the map, which would otherwise keep every directory of the run.
func (q *fileQueue) unwork(d string) {
	if q.workers[d]--; q.workers[d] <= 0 {
		delete(q.workers, d)
	}
}

// pick is the directory a worker in need of one should take: the oldest
// with no worker, else the one with the most files per worker. Oldest
// first, not the one with the most files: a directory a worker left
// halfway (for a listing) would otherwise lose to every fresh directory
// and wait until the end of the run, holding its files' entries; on a
// tree larger than the queue such remnants piled up by the hundred
// (memory and pick's time growing with the tree, not the queue).
func (q *fileQueue) pick() string {
	best, bestScore := "", -1.0
	for _, d := range q.order {
		if q.workers[d] == 0 {
			return d
		}
		if score := float64(len(q.byDir[d])) / float64(1+q.workers[d]); score > bestScore {
			best, bestScore = d, score
		}
	}
	return best
}
