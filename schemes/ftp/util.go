package ftp

import (
	"errors"

	"github.com/urlget/urlget/schemes"
)

func asError(err error, se **schemes.Error) bool { return errors.As(err, se) }
