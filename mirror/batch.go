package mirror

import (
	"context"

	"github.com/urlget/urlget/fetch"

	"github.com/urlget/urlget/schemes"
)

// pipelineBatch is the most files of one directory a worker takes at once
// when the scheme pipelines (schemes.Pipelines: NNTP articles, FTP's
// next passive port): it then fetches them one after another, each
// Request naming the ones after it (fetch.Request.Next), so that their
// requests go ahead on its connection and the batch costs a round trip or
// two instead of one or two per file. As many as a Request passes on
// (fetch.MaxNext), so that a handler's window stays full through a batch.
const pipelineBatch = fetch.MaxNext

// takeFiles takes the next file for a worker on the directory *cur (see
// fileQueue.pop) and, when the scheme pipelines, more of the same
// directory: up to pipelineBatch, and no more than the worker's share of
// the files waiting (n / Parallel, rounded up), so that a tree of small
// directories keeps every worker busy to the end (2,000 files in 20
// directories, -P 8: whole directories would leave four workers idle for
// the last four; shares of the 400 files left are 50). A file waits. The
// caller holds e.mu.
func (e *engine) takeFiles(cur *string, on *bool) []fileJob {
	share := (e.files.n + e.opt.parallel() - 1) / e.opt.parallel()
	j, _ := e.files.pop(cur, on)
	batch := []fileJob{j}
	for e.pipelines && len(batch) < min(pipelineBatch, share) && len(e.files.byDir[*cur]) > 0 {
		j, _ = e.files.pop(cur, on)
		batch = append(batch, j)
	}
	return batch
}

// transferAll fetches a batch of files in order, each Request naming the
// files that come after it (fetch.Request.Next).
func (e *engine) transferAll(ctx context.Context, batch []fileJob) {
	next := make([]schemes.Locator, len(batch))
	for i, j := range batch {
		next[i] = j.entry.Locator
	}
	for i, j := range batch {
		e.transfer(ctx, j, next[i+1:])
	}
}
