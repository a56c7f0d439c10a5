//go:build linux || darwin

package fetch

import (
	"os"

	"golang.org/x/sys/unix"
)

func setAttr(f *os.File, name string, value []byte) error {
	return unix.Fsetxattr(int(f.Fd()), name, value, 0)
}

func getAttr(f *os.File, name string, max int) ([]byte, error) {
	buf := make([]byte, max)
	n, err := unix.Fgetxattr(int(f.Fd()), name, buf)
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}

func removeAttr(f *os.File, name string) error {
	return unix.Fremovexattr(int(f.Fd()), name)
}

// hasAttr reports whether f carries the attribute name, asking only its
// size: a read, where removing an attribute that is not there still
// opens a journal transaction on ext4.
func hasAttr(f *os.File, name string) bool {
	_, err := unix.Fgetxattr(int(f.Fd()), name, nil)
	return err == nil
}
