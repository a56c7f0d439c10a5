package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// makeDirs creates the missing directories of the output path name
// (--create-dirs), as curl does.
func (o *options) makeDirs(loc schemes.Locator, name string) error {
	if !o.createDirs {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return outputError(loc, fmt.Sprintf("--create-dirs: cannot create the directory of %s", name), err)
	}
	return nil
}

// outputPlan is where a download to dest goes and how it settles: with
// -J on an -O file, into a work file beside dest, named once the server
// has had its say; the error page of --fail-with-body into the file
// itself, as curl writes it.
type outputPlan struct {
	dest, work string
	named      bool // -J: dest is the -O name, the server may give another
}

// planOutput is the plan for the i-th URL going to the file dest.
func (o *options) planOutput(i int, loc schemes.Locator, dest string) (*outputPlan, error) {
	p := &outputPlan{dest: dest, work: dest}
	if !o.headerName || i < len(o.outputs) || !o.remoteName {
		return p, nil
	}
	f, err := os.CreateTemp(filepath.Dir(dest), ".urlget-J-*")
	if err != nil {
		return nil, outputError(loc, fmt.Sprintf("-J: cannot create a work file beside %s", dest), err)
	}
	f.Close()
	p.work, p.named = f.Name(), true
	return p, nil
}

// settle ends the download that went to p.work with err, and returns the
// file the data is in and the error to report.
func (p *outputPlan) settle(loc schemes.Locator, res *fetch.Result, err error) (string, error) {
	if err != nil && errors.Is(err, schemes.ErrBodyWritten) {
		// --fail-with-body: the error page is what the file holds, not a
		// partial copy of the resource to continue.
		var pk *fetch.PartialKept
		if errors.As(err, &pk) {
			if pk.Path != p.work {
				os.Rename(pk.Path, p.work)
			}
			err = withoutPartial(err)
		}
	}
	if !p.named {
		return p.dest, err
	}
	if err != nil && !errors.Is(err, schemes.ErrBodyWritten) {
		os.Remove(p.work + fetch.PartSuffix)
		os.Remove(p.work)
		return p.dest, withoutPartial(err)
	}
	name := p.dest
	if res != nil && res.SuggestedName != "" {
		name = filepath.Join(filepath.Dir(p.dest), res.SuggestedName)
		if cerr := checkLocalName(res.SuggestedName); cerr != nil {
			os.Remove(p.work)
			return p.dest, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "output", Kind: schemes.KindSafety, URL: loc.Redacted(),
				Msg: fmt.Sprintf("-J: the server's file name %v", cerr)}
		}
		// As curl: a name the server chose never replaces a file.
		if lerr := os.Link(p.work, name); lerr != nil {
			os.Remove(p.work)
			if errors.Is(lerr, os.ErrExist) {
				return name, outputError(loc, fmt.Sprintf("-J: %s exists; the server's name does not replace a file (name it with -o)", name), nil)
			}
			return name, outputError(loc, fmt.Sprintf("-J: cannot create %s", name), lerr)
		}
		os.Remove(p.work)
		return name, err
	}
	if rerr := os.Rename(p.work, name); rerr != nil {
		os.Remove(p.work)
		return name, outputError(loc, fmt.Sprintf("-O: cannot rename the work file to %s", name), rerr)
	}
	return name, err
}

// withoutPartial is err without the note that a partial copy was kept:
// the file named there is no partial copy (an error page, a work file
// removed).
func withoutPartial(err error) error {
	var pk *fetch.PartialKept
	if !errors.As(err, &pk) {
		return err
	}
	var se *schemes.Error
	if errors.As(err, &se) && se.Err == error(pk) {
		e := *se
		e.Err = pk.Err
		return &e
	}
	if err == error(pk) {
		return pk.Err
	}
	return err
}
