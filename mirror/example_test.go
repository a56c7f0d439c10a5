package mirror_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/mirror"
)

// ExampleRun mirrors a file: tree, so that it runs anywhere without a
// network; an ftp:, http: index page or gopher: URL is mirrored the same
// way. A second Run copies nothing: every file is up to date.
func ExampleRun() {
	src, _ := os.MkdirTemp("", "urlget-mirror-src-")
	defer os.RemoveAll(src)
	os.MkdirAll(filepath.Join(src, "docs"), 0o755)
	os.WriteFile(filepath.Join(src, "README"), []byte("read me first\n"), 0o644)
	os.WriteFile(filepath.Join(src, "docs", "rfc1738.txt"), []byte("Uniform Resource Locators\n"), 0o644)
	dst, _ := os.MkdirTemp("", "urlget-mirror-dst-")
	defer os.RemoveAll(dst)

	var c fetch.Client
	var got []string
	opt := mirror.Options{Events: func(e mirror.Event) {
		if e.Type == mirror.EventGet {
			got = append(got, e.Path)
		}
	}}
	url := "file://" + filepath.ToSlash(src) + "/"
	sum, err := mirror.Run(context.Background(), &c, url, dst, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	slices.Sort(got) // transfers run in parallel
	fmt.Println("got:", got)
	fmt.Printf("%d files, %d bytes, %d errors\n", sum.Got, sum.Bytes, sum.Errors)
	b, _ := os.ReadFile(filepath.Join(dst, "docs", "rfc1738.txt"))
	fmt.Printf("docs/rfc1738.txt: %s", b)

	sum, _ = mirror.Run(context.Background(), &c, url, dst, mirror.Options{})
	fmt.Printf("again: %d got, %d unchanged\n", sum.Got, sum.Unchanged)
	// Output:
	// got: [README docs/rfc1738.txt]
	// 2 files, 40 bytes, 0 errors
	// docs/rfc1738.txt: Uniform Resource Locators
	// again: 0 got, 2 unchanged
}

// ExampleShard splits a mirror in two: each shard, on its own machine or
// in its own process, is told its index and the count (here from text,
// as --shard gives it), walks the whole tree and copies only the files it
// owns. A path's owner depends on the path alone.
func ExampleShard() {
	sh, err := mirror.ParseShard("1/2")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range []string{"README", "pub/README", "x"} {
		fmt.Printf("%s: shard %d of 2, ours: %v\n", p, mirror.ShardOf(p, 2), sh.Owns(p))
	}
	_, err = mirror.ParseShard("2/2")
	fmt.Println(err)
	// Output:
	// README: shard 0 of 2, ours: false
	// pub/README: shard 1 of 2, ours: true
	// x: shard 0 of 2, ours: false
	// the index counts from 0 and must be less than the count (0 to 1)
}
