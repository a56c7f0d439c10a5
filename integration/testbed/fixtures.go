package testbed

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FixtureVersion changes whenever the content of the fixture tree changes;
// integration/cmd/mkfixtures regenerates the tree when it differs from the
// stamp it wrote last time.
const FixtureVersion = "urlget-fixtures-v1"

// Big file: BigFileSize bytes made of SHA-256 blocks in counter mode,
// block i = SHA-256(BigFileSeed || uint64 big-endian i), concatenated.
const (
	// BigFile is the path of the big file inside the fixture tree.
	BigFile = "bin/big-64M.bin"
	// BigFileSize is its size in bytes (64 MiB).
	BigFileSize = 64 << 20
	// BigFileSeed is the seed prefixed to every counter block.
	BigFileSeed = "urlget big fixture seed 1"
	// BigFileSHA256 is the hex SHA-256 of the whole big file.
	BigFileSHA256 = "fdcce3ca64c81bd73892bbd1a90937a05c9eecb3c2cb3e84734c5d6adaa91766"
)

// WriteBigFile writes the BigFileSize deterministic bytes of BigFile to w.
func WriteBigFile(w io.Writer) error {
	const block = sha256.Size
	buf := make([]byte, 0, 1<<20)
	in := make([]byte, len(BigFileSeed)+8)
	copy(in, BigFileSeed)
	for i := uint64(0); i < BigFileSize/block; i++ {
		binary.BigEndian.PutUint64(in[len(BigFileSeed):], i)
		sum := sha256.Sum256(in)
		buf = append(buf, sum[:]...)
		if len(buf) == cap(buf) {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	if len(buf) > 0 {
		_, err := w.Write(buf)
		return err
	}
	return nil
}

// SmallBin returns the content of bin/small.bin: the bytes 0 to 255.
func SmallBin() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// ManyFiles is the number of files in many/ (file-0001.txt … file-2000.txt).
const ManyFiles = 2000

// ManyFileName returns the name (inside the fixture tree) of the i-th file of
// many/, 1 <= i <= ManyFiles.
func ManyFileName(i int) string { return fmt.Sprintf("many/file-%04d.txt", i) }

// ManyFileContent returns the content of the i-th file of many/.
func ManyFileContent(i int) string { return fmt.Sprintf("many file %04d\n", i) }

// OutsideLink is a symlink at the fixture root pointing outside the tree;
// OutsideLinkTarget is its target (resolved inside each container).
const (
	// OutsideLink is the symlink's path inside the fixture tree.
	OutsideLink = "outside-link"
	// OutsideLinkTarget is where it points.
	OutsideLinkTarget = "/etc/hostname"
)

// EmptyDirs lists the directories of the fixture tree that are empty.
var EmptyDirs = []string{"empty"}

// ScratchDir is the one directory of the fixture tree that tests change:
// empty when the stack comes up, it is where a test writes, from the
// host, the files it wants a server to serve and then to change (the
// mirror tests). The servers see it read-only, like the rest. Each test
// works in a subdirectory of its own (ScratchPath) and removes it when it
// ends; whole-tree checks leave ScratchDir out.
const ScratchDir = "scratch"

// FixtureModTime is the modification time mkfixtures gives every file and
// directory of the fixture tree, so that listings and Stat can be checked
// against it.
func FixtureModTime() time.Time { return time.Date(2024, time.January, 2, 3, 4, 5, 0, time.UTC) }

// FixtureFiles maps every regular file of the fixture tree except BigFile,
// bin/SHA256SUMS and many/ to its exact content. Paths use "/" and are
// relative to FixtureDir.
var FixtureFiles = map[string]string{
	"README.txt":                           "This is the urlget anonymous fixture root.\n",
	"text/lf.txt":                          "line one\nline two\nline three\n",
	"text/crlf.txt":                        "line one\r\nline two\r\nline three\r\n",
	"text/mixed.txt":                       "lf line\ncrlf line\r\nlone cr line\rno final eol",
	"text/dotlines.txt":                    "before\n.\n..\n.leading dot\nafter\n",
	"text/utf8.txt":                        "Grüße aus Köln — café, naïve, 日本語, Ελληνικά, emoji \U0001F642\n",
	"text/empty.txt":                       "",
	"nested/level1/level2/level3/deep.txt": "deep file at level 3\n",
	"bin/small.bin":                        string(SmallBin()),
	"bin/empty.bin":                        "",
	"names/file with space.txt":            "name with space\n",
	"names/hash#mark.txt":                  "name with hash mark\n",
	"names/semi;colon.txt":                 "name with semicolon\n",
	"names/a #b;c.txt":                     "name with space, hash and semicolon\n",
	"names/percent%20literal.txt":          "name with a literal %20\n",
	"names/café.txt":                       "non-ASCII name (UTF-8, NFC)\n",
	"dir with space/inside.txt":            "inside a directory with a space\n",
	"site/index.html": "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>urlget test site</title></head>\n" +
		"<body><h1>urlget test site</h1>\n<p><a href=\"../text/lf.txt\">lf.txt</a></p>\n</body></html>\n",
}

// ScratchPath makes a fresh directory for the calling test under
// ScratchDir (removed when the test ends) and returns its host path and
// its path relative to FixtureDir, with "/" separators.
func ScratchPath(t testing.TB) (host, rel string) {
	t.Helper()
	name := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	rel = ScratchDir + "/" + name
	host = filepath.Join(FixtureDir(), filepath.FromSlash(rel))
	if err := os.RemoveAll(host); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(host, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(host) })
	return host, rel
}
