//go:build integration

package integration

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/hostile"
)

// TestNNTPUnsolicitedArticle runs urlget against a news server that sends
// one article nobody asked for right after its reply for the first: three
// articles to three files (-o), then from a URL list (-i, -O), pipelined
// and with --no-pipeline, whole articles and headers (-I). Each file holds
// exactly its own article, or the run exits 6 with that file not written:
// never the injected article, never another's. Before issue 31 every run
// exited 0 with b's file holding the injected article (and, pipelined, c's
// holding b's). With --retry the article asked again comes whole.
func TestNNTPUnsolicitedArticle(t *testing.T) {
	ids := []string{"a1@x", "b2@x", "c3@x"}
	for _, tc := range []struct {
		name string
		list bool     // from a URL list, files named like the articles
		args []string // the other options
	}{
		{"-o, pipelined", false, nil},
		{"-o, --no-pipeline", false, []string{"--no-pipeline"}},
		{"-o -I, pipelined", false, []string{"-I"}},
		{"-o -I, --no-pipeline", false, []string{"-I", "--no-pipeline"}},
		{"-i, pipelined", true, nil},
		{"-i, --no-pipeline", true, []string{"--no-pipeline"}},
		{"-i -I, pipelined", true, []string{"-I"}},
		// The failure is retryable: asked again, on a new connection,
		// the article comes.
		{"-o, pipelined, --retry 1", false, []string{"--retry", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := hostile.Start(hostile.NNTPInjector(ids...))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			dir := t.TempDir()
			args := append([]string{"--nntp-server", srv.HostPort()}, tc.args...)
			files := make([]string, len(ids))
			for i, id := range ids {
				files[i] = strings.TrimSuffix(id, "@x")[:1] + ".art"
				if tc.list {
					files[i] = id // -O names the file after the message-id
				}
			}
			if tc.list {
				urls := "news:" + strings.Join(ids, "\nnews:") + "\n"
				if err := os.WriteFile(filepath.Join(dir, "urls"), []byte(urls), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-i", "urls", "-O")
			} else {
				for i, id := range ids {
					args = append(args, "-o", files[i], "news:"+id)
				}
			}
			r := runURLGet(t, dir, args...)
			held := make([]string, len(ids))
			for i, id := range ids {
				b, err := os.ReadFile(filepath.Join(dir, files[i]))
				switch {
				case errors.Is(err, fs.ErrNotExist):
					held[i] = "not written"
					if r.code != 6 {
						t.Errorf("%s not written, and the run exited %d, not 6", files[i], r.code)
					}
				case err != nil:
					t.Fatal(err)
				case string(b) == ownArticle(id, tc.args):
					held[i] = "its own article"
				default:
					held[i] = "another's bytes: " + strings.ReplaceAll(string(b), "\n", "|")
					t.Errorf("%s holds %q, want %s's own article %q", files[i], b, id, ownArticle(id, tc.args))
				}
			}
			t.Logf("urlget %s: exit %d; %s: %s, %s: %s, %s: %s\n%s", strings.Join(args, " "), r.code,
				files[0], held[0], files[1], held[1], files[2], held[2], strings.TrimSpace(r.stderr))
			if retried := slices.Contains(tc.args, "--retry"); retried && r.code != 0 || r.code != 0 && r.code != 6 {
				t.Errorf("exit %d, want 0 or 6 (0 with --retry)\n%s", r.code, tail(r.stderr))
			}
			if r.code == 6 && !strings.Contains(r.stderr, "injected@x") {
				t.Errorf("exit 6 without naming the article the server sent instead:\n%s", tail(r.stderr))
			}
		})
	}
}

// ownArticle is what urlget writes of id with args: the headers with -I,
// else the whole article.
func ownArticle(id string, args []string) string {
	head, body := hostile.InjectedArticle(id)
	if slices.Contains(args, "-I") {
		return head
	}
	return head + "\n" + body
}
