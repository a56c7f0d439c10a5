//go:build !(linux || darwin)

package fetch

import (
	"errors"
	"os"
)

var errNoAttrs = errors.New("extended attributes are not supported here")

func setAttr(*os.File, string, []byte) error { return errNoAttrs }

func getAttr(*os.File, string, int) ([]byte, error) { return nil, errNoAttrs }

func removeAttr(*os.File, string) error { return errNoAttrs }

func hasAttr(*os.File, string) bool { return false }
