// Command mkfixtures generates the fixture tree served by the FTP, HTTP and
// Gopher servers of the integration test bed.
//
// Usage:
//
//	go run ./integration/cmd/mkfixtures [-o integration/.run/fixtures] [-force]
//
// The content is defined in package integration/testbed (FixtureFiles,
// WriteBigFile, ManyFileContent …), so tests and the generator agree. The
// tree is built in a temporary sibling directory and renamed into place; a
// stamp file next to it (<dir>.stamp) records what was generated, and a run
// whose stamp matches does nothing. All files are world-readable and carry a
// fixed modification time.
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/urlget/urlget/integration/testbed"
)

// mtime is the modification time of every generated file and directory.
var mtime = testbed.FixtureModTime()

func main() {
	out := flag.String("o", filepath.Join("integration", ".run", "fixtures"), "target directory")
	force := flag.Bool("force", false, "regenerate even if the stamp matches")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mkfixtures: ")

	dir := filepath.Clean(*out)
	stampFile := dir + ".stamp"
	want := stamp()
	if !*force {
		if got, err := os.ReadFile(stampFile); err == nil && string(got) == want {
			if _, err := os.Stat(filepath.Join(dir, testbed.BigFile)); err == nil {
				log.Printf("%s is up to date", dir)
				return
			}
		}
	}
	start := time.Now()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".fixtures-tmp-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if err := generate(tmp); err != nil {
		log.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		log.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(stampFile, []byte(want), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("generated %s in %v", dir, time.Since(start).Round(time.Millisecond))
}

// stamp describes the content to generate; a change of any fixture changes it.
func stamp() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%d\n%s\n", testbed.FixtureVersion, testbed.BigFileSeed, testbed.BigFileSize, testbed.BigFileSHA256)
	for _, name := range sortedKeys(testbed.FixtureFiles) {
		fmt.Fprintf(h, "%q %q\n", name, testbed.FixtureFiles[name])
	}
	for i := 1; i <= testbed.ManyFiles; i++ {
		fmt.Fprintf(h, "%s %s", testbed.ManyFileName(i), testbed.ManyFileContent(i))
	}
	fmt.Fprintf(h, "%v %s %s %s\n", testbed.EmptyDirs, testbed.OutsideLink, testbed.OutsideLinkTarget, testbed.ScratchDir)
	return testbed.FixtureVersion + " " + hex.EncodeToString(h.Sum(nil)) + "\n"
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func generate(root string) error {
	var paths []string // everything created, for permissions and times
	mkdir := func(rel string) error {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		for d := rel; d != "." && d != "/"; d = filepath.ToSlash(filepath.Dir(d)) {
			paths = append(paths, d)
		}
		return nil
	}
	write := func(rel string, data []byte) error {
		if err := mkdir(filepath.ToSlash(filepath.Dir(rel))); err != nil {
			return err
		}
		paths = append(paths, rel)
		return os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), data, 0o644)
	}

	for _, name := range sortedKeys(testbed.FixtureFiles) {
		if err := write(name, []byte(testbed.FixtureFiles[name])); err != nil {
			return err
		}
	}
	for i := 1; i <= testbed.ManyFiles; i++ {
		if err := write(testbed.ManyFileName(i), []byte(testbed.ManyFileContent(i))); err != nil {
			return err
		}
	}
	for _, d := range append(slices.Clone(testbed.EmptyDirs), testbed.ScratchDir) {
		if err := mkdir(d); err != nil {
			return err
		}
	}

	// The big file, verified against the expected digest while writing.
	bigPath := filepath.Join(root, filepath.FromSlash(testbed.BigFile))
	f, err := os.OpenFile(bigPath, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	if err := testbed.WriteBigFile(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	paths = append(paths, testbed.BigFile)
	if got := hex.EncodeToString(h.Sum(nil)); got != testbed.BigFileSHA256 {
		return fmt.Errorf("%s: sha256 %s, want %s", testbed.BigFile, got, testbed.BigFileSHA256)
	}

	// bin/SHA256SUMS in sha256sum(1) format, sorted by name.
	var sums strings.Builder
	binFiles := map[string]string{testbed.BigFile: testbed.BigFileSHA256}
	for name, content := range testbed.FixtureFiles {
		if strings.HasPrefix(name, "bin/") {
			s := sha256.Sum256([]byte(content))
			binFiles[name] = hex.EncodeToString(s[:])
		}
	}
	for _, name := range sortedKeys(binFiles) {
		fmt.Fprintf(&sums, "%s  %s\n", binFiles[name], strings.TrimPrefix(name, "bin/"))
	}
	if err := write("bin/SHA256SUMS", []byte(sums.String())); err != nil {
		return err
	}

	if err := os.Symlink(testbed.OutsideLinkTarget, filepath.Join(root, testbed.OutsideLink)); err != nil {
		return err
	}

	// Permissions (independent of the umask) and fixed times, deepest first.
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	seen := map[string]bool{}
	for _, rel := range paths {
		if seen[rel] {
			continue
		}
		seen[rel] = true
		p := filepath.Join(root, filepath.FromSlash(rel))
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if fi.IsDir() {
			mode = 0o755
		}
		if err := os.Chmod(p, mode); err != nil {
			return err
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			return err
		}
	}
	return os.Chtimes(root, mtime, mtime)
}
