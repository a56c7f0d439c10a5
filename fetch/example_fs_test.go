package fetch_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urlget/urlget/fetch"
)

func ExampleClient_FS() {
	// A small tree to look at through a file: URL; an ftp://, gopher://,
	// http:// index page or prospero:// URL is used the same way.
	dir, _ := os.MkdirTemp("", "urlget-example-")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "pub", "docs"), 0o755)
	os.WriteFile(filepath.Join(dir, "pub", "README"), []byte("read me first\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pub", "docs", "rfc1738.txt"), []byte("Uniform Resource Locators\n"), 0o644)

	var c fetch.Client
	// The context bounds every operation of the FS: cancel it to end them.
	fsys, err := c.FS(context.Background(), "file://"+filepath.ToSlash(dir)+"/pub/")
	if err != nil {
		fmt.Println(err)
		return
	}
	fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			fmt.Println(name + "/")
			return nil
		}
		info, _ := d.Info()
		fmt.Printf("%s (%d bytes)\n", name, info.Size())
		return nil
	})
	text, _ := fs.ReadFile(fsys, "docs/rfc1738.txt")
	fmt.Printf("%s", text)
	_, err = fs.Stat(fsys, "docs/missing.txt")
	fmt.Println(err)
	// Output:
	// ./
	// README (14 bytes)
	// docs/
	// docs/rfc1738.txt (26 bytes)
	// Uniform Resource Locators
	// stat docs/missing.txt: file does not exist
}
