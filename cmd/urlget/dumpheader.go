package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// headDump is -D/--dump-header: each response's head, written as the
// response arrives and before its body (curl's order on a shared
// stdout), as well as the body. HTTP's is the head as the server sent
// it, each redirect's first (curl -L writes one block a response); the
// other schemes get the lines -I shows for them (headText), where they
// know a size or a time. A file is truncated once, when the run starts,
// and every transfer appends to it, as curl does; "-" is the stdout of
// the transfer (with -Z, its share of stdout, written out in order).
type headDump struct {
	mu sync.Mutex
	f  *os.File // nil for stdout
}

// openHeadDump opens -D's file, empty; nil without -D.
func (o *options) openHeadDump() (*headDump, error) {
	switch o.dumpHeader {
	case "":
		return nil, nil
	case "-":
		return &headDump{}, nil
	}
	f, err := os.OpenFile(o.dumpHeader, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return nil, &schemes.Error{Phase: "output", Kind: schemes.KindLocal,
			Msg: fmt.Sprintf("-D %s: cannot create it", o.dumpHeader), Err: err}
	}
	return &headDump{f: f}, nil
}

// write adds text, one response's heads, to the dump (nil: no -D);
// stdout is the transfer's.
func (d *headDump) write(text string, stdout io.Writer) error {
	if d == nil || text == "" {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	w := stdout
	if d.f != nil {
		w = d.f
	}
	_, err := io.WriteString(w, text)
	return err
}

// close closes -D's file.
func (d *headDump) close() {
	if d != nil && d.f != nil {
		d.f.Close()
	}
}

// dumpHeads has req report each answer's heads to -D, and asks a
// scheme that -I describes for the time -I shows (a round trip of its
// own on FTP: MDTM). The first failure to write them ends up in *werr,
// for the transfer to fail with once it is over.
func (o *options) dumpHeads(c *fetch.Client, req *fetch.Request, stdout io.Writer, werr *error) {
	if o.dump == nil {
		return
	}
	req.WantModTime = req.WantModTime || c.Caps(req.URL).Has(schemes.Stats)
	req.Answered = func(r *fetch.Response) {
		text := strings.Join(r.RedirectHeads, "") + headText(r.Response, c.Caps(r.URL).Has(schemes.Local))
		if err := o.dump.write(text, stdout); err != nil && *werr == nil {
			*werr = outputError(r.URL, fmt.Sprintf("-D %s: cannot write the head", o.dumpHeader), err)
		}
	}
}
