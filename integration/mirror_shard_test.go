//go:build integration

package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
	"github.com/urlget/urlget/mirror"
)

// shardRun is what one `urlget mirror --shard I/N --json` process did.
type shardRun struct {
	shard   mirror.Shard
	code    int
	stderr  string
	events  []map[string]any // every JSON object, the summary last
	gets    []string         // paths of its get events
	deletes []string         // paths of its delete events
}

// summary is the run's summary object.
func (r *shardRun) summary() map[string]any {
	if len(r.events) == 0 {
		return nil
	}
	return r.events[len(r.events)-1]
}

// runShards runs n `urlget mirror --shard I/N --json` processes at once,
// one a shard, each with args before the URL and directory, and returns
// what each did. Every JSON object a shard writes must carry its shard.
func runShards(t *testing.T, n int, src, dst string, args ...string) []*shardRun {
	t.Helper()
	runs := make([]*shardRun, n)
	var wg sync.WaitGroup
	for i := range n {
		sh := mirror.Shard{Index: i, Count: n}
		runs[i] = &shardRun{shard: sh}
		argv := append([]string{"mirror", "--shard", sh.String(), "--json", "--interface", testbed.ClientIP.String()}, args...)
		argv = append(argv, src, dst)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, urlgetBinary(t), argv...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cancel()
			err := cmd.Wait()
			r := runs[i]
			r.stderr = stderr.String()
			if ee, ok := err.(*exec.ExitError); ok {
				r.code = ee.ExitCode()
			} else if err != nil {
				r.code, r.stderr = -1, err.Error()
			}
			if ctx.Err() != nil {
				r.code, r.stderr = -1, "still running after 3 minutes"
			}
			for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
				var ev map[string]any
				if json.Unmarshal([]byte(l), &ev) != nil {
					r.events = append(r.events, map[string]any{"not json": l})
					continue
				}
				r.events = append(r.events, ev)
				p, _ := ev["path"].(string)
				switch ev["event"] {
				case "get":
					r.gets = append(r.gets, p)
				case "delete":
					r.deletes = append(r.deletes, p)
				}
			}
		}()
	}
	wg.Wait()
	for _, r := range runs {
		if r.code != 0 {
			t.Fatalf("shard %v: exit %d: %s", r.shard, r.code, r.stderr)
		}
		for _, ev := range r.events {
			if ev["shard"] != r.shard.String() {
				t.Fatalf("shard %v wrote %v, without its shard", r.shard, ev)
			}
		}
		if s := r.summary(); s["event"] != "summary" || s["got"] != float64(len(r.gets)) {
			t.Fatalf("shard %v: summary %v, %d get events", r.shard, s, len(r.gets))
		}
	}
	return runs
}

// vsftpdDownloads counts the files vsftpd sent to this test process (its
// log's "OK DOWNLOAD" lines for testbed.ClientIP, which name the whole
// path from the FTP root) since offset, by path, those under prefix only,
// as the log writes them (loggedName).
func vsftpdDownloads(t *testing.T, offset int64, prefix string) map[string]int {
	t.Helper()
	b, err := testbed.ReadProtocolLogSince(testbed.Vsftpd, offset)
	if err != nil {
		t.Fatal(err)
	}
	// (an empty file's line has no "N bytes, ")
	re := regexp.MustCompile(`\] OK DOWNLOAD: Client "([^"]*)", "(.*)", (?:\d+ bytes, )?[\d.]+Kbyte/sec$`)
	ours := testbed.ClientIP.String()
	out := map[string]int{}
	for _, l := range strings.Split(string(b), "\n") {
		if m := re.FindStringSubmatch(l); m != nil && m[1] == ours && strings.HasPrefix(m[2], prefix) {
			out[strings.TrimPrefix(m[2], prefix)]++
		}
	}
	return out
}

// loggedName is a path as vsftpd's log writes it: each byte outside
// printable ASCII as "?" ("café" is "caf??").
func loggedName(p string) string {
	b := []byte(p)
	for i, c := range b {
		if c < 0x20 || c >= 0x7f {
			b[i] = '?'
		}
	}
	return string(b)
}

// checkShardGets fails t unless the shards' gets are the files of want,
// each by its owner alone, and vsftpd's log (since offset, under prefix)
// sent each exactly once.
func checkShardGets(t *testing.T, runs []*shardRun, want map[string]string, offset int64, prefix string) {
	t.Helper()
	by := map[string]string{}
	for _, r := range runs {
		for _, p := range r.gets {
			if other, ok := by[p]; ok {
				t.Errorf("%s fetched by shards %s and %v", p, other, r.shard)
			}
			by[p] = r.shard.String()
			if !r.shard.Owns(p) {
				t.Errorf("shard %v fetched %s, shard %d's", r.shard, p, mirror.ShardOf(p, r.shard.Count))
			}
			if _, ok := want[p]; !ok {
				t.Errorf("shard %v fetched %s, no file of the tree", r.shard, p)
			}
		}
		t.Logf("shard %v: %d fetched, %v left to the others", r.shard, len(r.gets), r.summary()["other_shards"])
	}
	if len(by) != len(want) {
		t.Errorf("the shards fetched %d files of %d", len(by), len(want))
	}
	expect := map[string]int{} // sends expected, by logged name
	for p := range want {
		expect[loggedName(p)]++
	}
	var sent map[string]int
	// vsftpd logs a download as its data connection closes: the last
	// line may follow the client's exit by a moment (bounded: the
	// counts are judged below either way).
	await.Poll(func() bool {
		sent = vsftpdDownloads(t, offset, prefix)
		return len(sent) >= len(expect)
	})
	wrong := 0
	for p, n := range expect {
		if sent[p] != n {
			if wrong++; wrong <= 10 {
				t.Errorf("vsftpd sent %s %d times, want %d", p, sent[p], n)
			}
		}
	}
	for p := range sent {
		if _, ok := expect[p]; !ok {
			t.Errorf("vsftpd sent %s, no file of the tree", p)
		}
	}
	if wrong > 0 {
		t.Errorf("%d of %d files sent other than once", wrong, len(expect))
	} else {
		t.Logf("vsftpd sent each of the %d files once", len(expect))
	}
}

// TestMirrorShardsFTP: four shards of vsftpd's fixture tree, four
// processes at once into one directory, make the tree one unsplit run
// makes (every file's SHA-256, against the fixture tree on the host and
// against an unsplit run's copy), each file fetched by its owner alone
// and sent once by the server (its log's downloads); a later unsplit
// --dry-run over the target plans nothing. Then, with --delete, stale
// local files (in a listed directory, and in directories the remote lacks,
// nested) go, each file by its owning shard only (the other shards'
// JSON logs show no deletion of it), each directory once.
func TestMirrorShardsFTP(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	want := hostTree(t, testbed.FixtureDir(), testbed.ScratchDir)
	src := fmt.Sprintf("ftp://%s/", testbed.Addr(testbed.VsftpdPort))
	work := t.TempDir()
	one := filepath.Join(work, "one")
	if r := runURLGet(t, work, "mirror", "-P", "4", "--exclude", testbed.ScratchDir, src, one); r.code != 0 {
		t.Fatalf("the unsplit run: exit %d: %s", r.code, r.stderr)
	}
	dst := filepath.Join(work, "shards")
	off := testbed.LogSize(testbed.Vsftpd)
	runs := runShards(t, 4, src, dst, "-P", "4", "--exclude", testbed.ScratchDir)
	got := hostTree(t, dst)
	sameTrees(t, got, want)
	sameTrees(t, got, hostTree(t, one))
	checkShardGets(t, runs, want, off, "/")
	if out, code := runURLGetOutput(t, work, "mirror", "--dry-run", "--exclude", testbed.ScratchDir, src, dst); code != 0 || out != "" {
		t.Fatalf("the unsplit dry run after the shards: exit %d, plans\n%s", code, out)
	}

	stale := []string{"many/stale-a", "many/stale-b", "many/stale-c", "many/stale-d", "many/stale-e", "many/stale-f",
		"many/gone/x", "many/gone/y", "many/gone/z", "many/gone/deeper/u", "many/gone/deeper/v", "many/gone/deeper/w",
		"gone-top/p", "gone-top/q", "gone-top/r", "gone-top/s"}
	dirs := map[string]bool{"many/gone": true, "many/gone/deeper": true, "gone-top": true}
	for _, p := range stale {
		full := filepath.Join(dst, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("stale\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	owners := map[int]bool{}
	for _, p := range stale {
		owners[mirror.ShardOf(p, 4)] = true
	}
	if len(owners) < 3 {
		t.Fatalf("the stale files belong to %d shards: the test shows little", len(owners))
	}
	runs = runShards(t, 4, src, dst, "-P", "4", "--delete", "--exclude", testbed.ScratchDir)
	deletedBy := map[string][]string{}
	for _, r := range runs {
		if len(r.gets) != 0 {
			t.Errorf("shard %v fetched %v on a run with nothing new", r.shard, r.gets)
		}
		if s := r.summary(); s["deleted"] != float64(len(r.deletes)) {
			t.Errorf("shard %v: summary %v, %d delete events", r.shard, s, len(r.deletes))
		}
		t.Logf("shard %v deleted %v", r.shard, r.deletes)
		for _, p := range r.deletes {
			deletedBy[p] = append(deletedBy[p], r.shard.String())
			if !dirs[p] && !r.shard.Owns(p) {
				t.Errorf("shard %v deleted %s, shard %d's", r.shard, p, mirror.ShardOf(p, 4))
			}
		}
	}
	for _, p := range stale {
		if by := deletedBy[p]; len(by) != 1 {
			t.Errorf("%s deleted by shards %v, want its owner %d alone", p, by, mirror.ShardOf(p, 4))
		}
	}
	for d := range dirs {
		if by := deletedBy[d]; len(by) != 1 {
			t.Errorf("directory %s removed by shards %v, want one", d, by)
		}
	}
	if len(deletedBy) != len(stale)+len(dirs) {
		t.Errorf("deleted %d paths, want the %d stale ones: %v", len(deletedBy), len(stale)+len(dirs), deletedBy)
	}
	sameTrees(t, hostTree(t, dst), want)
	for d := range dirs {
		if _, err := os.Stat(filepath.Join(dst, filepath.FromSlash(d))); err == nil {
			t.Errorf("directory %s left", d)
		}
	}
}

// TestMirrorShards10000: four shards of a tree of 10,000 files in 100
// directories (written for the test under the fixtures' scratch
// directory: the fixtures hold no tree that large), at once into one
// directory, make the tree, each file sent once by vsftpd; an unsplit
// dry run after them plans nothing.
func TestMirrorShards10000(t *testing.T) {
	testbed.Require(t, testbed.Vsftpd)
	host, rel := testbed.ScratchPath(t)
	for d := range 100 {
		dir := filepath.Join(host, fmt.Sprintf("d%02d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 100 {
			p := fmt.Sprintf("d%02d/f%03d", d, f)
			writeScratch(t, host, p, fmt.Sprintf("file %d of %d\n", f, d), testbed.FixtureModTime())
		}
	}
	want := hostTree(t, host)
	if len(want) != 10_000 {
		t.Fatalf("wrote %d files", len(want))
	}
	src := fmt.Sprintf("ftp://%s/%s/", testbed.Addr(testbed.VsftpdPort), rel)
	work := t.TempDir()
	dst := filepath.Join(work, "shards")
	off := testbed.LogSize(testbed.Vsftpd)
	begin := time.Now()
	runs := runShards(t, 4, src, dst, "-P", "4")
	t.Logf("four shards of 10,000 files in %v", time.Since(begin).Round(time.Millisecond))
	sameTrees(t, hostTree(t, dst), want)
	checkShardGets(t, runs, want, off, "/"+rel+"/")
	if out, code := runURLGetOutput(t, work, "mirror", "--dry-run", src, dst); code != 0 || out != "" {
		t.Fatalf("the unsplit dry run after the shards: exit %d, plans\n%s", code, out)
	}
}
