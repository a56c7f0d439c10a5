package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/mirror"
)

// TestMirrorShardUsage: a --shard that cannot be is a usage error (exit
// 2) naming the flag, before anything is written; --shard k8s names the
// variable it lacks or could not read.
func TestMirrorShardUsage(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "dst")
	for _, c := range []struct {
		shard, index, count, want string
	}{
		{"4/4", "", "", "--shard 4/4: the index counts from 0 and must be less than the count (0 to 3)"},
		{"1", "", "", "--shard 1: want I/N"},
		{"x/4", "", "", `--shard x/4: the index "x" is not a number`},
		{"1/0", "", "", "--shard 1/0: the count must be 1 or more"},
		{"k8s", "", "", "--shard k8s: JOB_COMPLETION_INDEX is not set"},
		{"k8s", "2", "", "--shard k8s: JOB_COMPLETIONS is not set"},
		{"k8s", "4", "4", `--shard k8s (JOB_COMPLETION_INDEX="4", JOB_COMPLETIONS="4"): the index counts from 0`},
	} {
		t.Run(c.shard+c.index+c.count, func(t *testing.T) {
			setOrUnset(t, envShardIndex, c.index)
			setOrUnset(t, envShardCount, c.count)
			code, _, stderr := runCmd("mirror", "--shard", c.shard, "file:///tmp/", dst)
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, c.want)
			}
		})
	}
	if _, err := os.Stat(dst); err == nil {
		t.Error("a refused mirror made its directory")
	}
}

// setOrUnset sets the variable k to v for the test, or unsets it for "".
func setOrUnset(t *testing.T, k, v string) {
	t.Setenv(k, v) // restored after the test
	if v == "" {
		os.Unsetenv(k)
	}
}

// TestMirrorShardOutput: the shards of a file: tree, one given I/N and
// the others read from the environment with k8s, fetch each file once
// between them; every --json event and the summary carry the shard, and
// the summary line says how many files were left to the others. A later
// unsplit --dry-run over the whole target plans nothing: the documented
// check of the union.
func TestMirrorShardOutput(t *testing.T) {
	src := t.TempDir()
	for i := range 40 {
		d := filepath.Join(src, fmt.Sprintf("d%d", i%3))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, fmt.Sprintf("f%02d", i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644)
	}
	url := "file://" + filepath.ToSlash(src) + "/"
	dst := t.TempDir()
	code, _, stderr := runCmd("mirror", "--shard", "0/3", url, dst)
	if code != 0 || !strings.Contains(stderr, "mirrored (shard 0/3): ") || !strings.Contains(stderr, " left to the other shards") {
		t.Fatalf("shard 0/3: exit %d, stderr %q", code, stderr)
	}
	got := map[string]string{}
	for i := 1; i < 3; i++ {
		t.Setenv(envShardIndex, fmt.Sprint(i))
		t.Setenv(envShardCount, "3")
		code, stdout, stderr := runCmd("mirror", "--shard", "k8s", "--json", url, dst)
		if code != 0 {
			t.Fatalf("shard %d/3: exit %d, stderr %q", i, code, stderr)
		}
		want := fmt.Sprintf("%d/3", i)
		var others float64
		for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var ev map[string]any
			if err := json.Unmarshal([]byte(l), &ev); err != nil {
				t.Fatalf("not JSON: %q", l)
			}
			if ev["shard"] != want {
				t.Errorf("shard %s: %s carries no shard %q", want, l, want)
			}
			if ev["event"] == "get" {
				p := ev["path"].(string)
				if by, ok := got[p]; ok {
					t.Errorf("%s fetched by %s and %s", p, by, want)
				}
				got[p] = want
				if mirror.ShardOf(p, 3) != i {
					t.Errorf("shard %s fetched %s, shard %d's", want, p, mirror.ShardOf(p, 3))
				}
			}
			if ev["event"] == "summary" {
				others = ev["other_shards"].(float64)
			}
		}
		if others == 0 {
			t.Errorf("shard %s: the summary counts no file of the other shards", want)
		}
	}
	code, stdout, stderr := runCmd("mirror", "--dry-run", url, dst)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "would fetch 0 (0 B), 40 unchanged") {
		t.Fatalf("the unsplit dry run after the shards: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
