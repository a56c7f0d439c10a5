package fetch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urlget/urlget/schemes"
)

// SettingServerName is DownloadOptions.ServerName, as schemes.Error.Setting
// names it (curl's -J).
const SettingServerName = "fetch.ServerName"

// finalName is the file a download that went through NAME.part becomes:
// NAME, or with ServerName the name the server suggested, beside NAME.
// A suggestion that is not one plain file name is refused (KindSafety):
// no server makes a caller write outside the directory it chose.
//
// It sets t.as and res.Path to the name.
func finalName(loc schemes.Locator, t *target, res *Result, opt DownloadOptions) error {
	if !opt.ServerName || t.mode != intoPart || res.SuggestedName == "" {
		return nil
	}
	name, ok := schemes.SafeName(res.SuggestedName)
	if !ok {
		return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "output", Kind: schemes.KindSafety, URL: loc.Redacted(),
			Part: "name", Setting: SettingServerName,
			Msg: fmt.Sprintf("the server's file name %q is not a plain file name", res.SuggestedName)}
	}
	t.as = filepath.Join(filepath.Dir(t.dest), name)
	res.Path = t.as
	return nil
}

// linkNew puts the finished work file at t.as unless a file is there
// (os.Link fails with fs.ErrExist where os.Rename would replace it), and
// removes NAME.part either way: what it held is no partial copy to
// continue.
func (t *target) linkNew(loc schemes.Locator) error {
	name := t.as
	err := os.Link(t.part, name)
	os.Remove(t.part)
	t.held = 0
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		return &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "output", Kind: schemes.KindLocal, URL: loc.Redacted(),
			Part: "name", Setting: SettingServerName, Err: fs.ErrExist,
			Msg: fmt.Sprintf("%s exists; a name the server chose never replaces a file", name)}
	}
	return localError(loc, "rename", err)
}
