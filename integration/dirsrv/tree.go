package dirsrv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// TreeTime is the modification time WriteTree gives every file.
var TreeTime = time.Date(1994, 5, 17, 12, 0, 0, 0, time.UTC)

// BigFile is the native file whose contents span more than 32 packets
// (the 44,800 bytes of the notes' capture).
const BigFile = "big.txt"

// treeFiles are the native files WriteTree writes, by path, built once.
var treeFiles = sync.OnceValue(func() map[string][]byte {
	var big strings.Builder
	for i := 0; big.Len() < 44800; i++ {
		fmt.Fprintf(&big, "row %05d of the Prospero test file, long enough to span many ARDP packets..\n", i)
	}
	bin := make([]byte, 0, 1024)
	for i := 0; i < 1024; i++ {
		bin = append(bin, byte(i))
	}
	return map[string][]byte{
		"README.txt":        []byte("Hello from a native file served by Prospero dirsrv.\n"),
		BigFile:             []byte(big.String()[:44800]),
		"binary.bin":        bin,
		"with space.txt":    []byte("a name with a space\n"),
		"it's quoted.txt":   []byte("a name with a quote: it's\n"),
		"empty.txt":         nil,
		"sub/nested.txt":    []byte("nested one level down\n"),
		"sub/deeper/x.txt":  []byte("two levels down\n"),
		"lines\r\nfile.txt": []byte("a name with CR LF in it\n"),
	}
})

// TreeFiles returns the native files of the tree by path; callers must
// not modify them.
func TreeFiles() map[string][]byte { return treeFiles() }

// WriteTree writes the native tree into dir: a small text, a 44,800-byte
// text (36 packets), a binary file of every byte value (NUL, 0xFF, LF,
// CR, ' included), names with a space, a quote and CR LF, an empty file,
// nested directories and an empty directory. Every file's time is
// TreeTime.
func WriteTree(dir string) error {
	for p, b := range treeFiles() {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, b, 0o644); err != nil {
			return err
		}
		if err := os.Chtimes(name, TreeTime, TreeTime); err != nil {
			return err
		}
	}
	return os.MkdirAll(filepath.Join(dir, "emptydir"), 0o755)
}
