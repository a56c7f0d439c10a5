package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// headInto carries out -I for loc: the metadata without the body, as
// curl shows it, to dest ("" for stdout). A scheme that can stat (Caps
// Stats) is described by one (HTTP HEAD, FTP SIZE/MDTM/MLST, file
// lstat); one whose declaration reads -I (schemes.OptionHead: news, the
// article's header lines) is retrieved
// as usual by the caller (handled false); any other is refused.
func (o *options) headInto(ctx context.Context, c *fetch.Client, loc schemes.Locator, dest string, stdout io.Writer, rep *report) (handled bool, err error) {
	caps := c.Caps(loc)
	if !caps.Has(schemes.Stats) {
		g := loc.Generic()
		if o.schemes.uses(g.Scheme, schemes.OptionHead) {
			return false, nil
		}
		return true, &schemes.Error{Scheme: g.Scheme, Phase: "flags", Kind: schemes.KindUnsupported, URL: loc.Redacted(),
			Part: "scheme", Msg: fmt.Sprintf("-I: %s: URLs cannot be described without retrieving them (the scheme has no stat)", g.Scheme)}
	}
	// An error status's head is shown as any other, as curl -I shows it;
	// with -f or --fail-with-body the status fails after it (exit 22).
	resp, err := c.Do(ctx, &fetch.Request{Method: fetch.MethodStat, URL: loc, ErrorPages: true})
	if err != nil {
		rep.failedAt(err)
		return true, err
	}
	o.fillReport(rep, resp.URL, 0, resp.Size, resp.Type, resp.ModTime)
	rep.Status, rep.redirects, rep.failure = resp.Status, resp.Redirects, resp.Failure
	// Each redirect's head first: urlget follows them, so it shows what
	// curl -IL shows.
	text := strings.Join(resp.RedirectHeads, "") + headText(resp.Response, c.Caps(resp.URL).Has(schemes.Local))
	if err := o.dump.write(text, stdout); err != nil {
		return true, outputError(loc, fmt.Sprintf("-D %s: cannot write the head", o.dumpHeader), err)
	}
	if dest == "" {
		_, err = io.WriteString(stdout, text)
	} else {
		rep.Output = &dest
		if werr := os.WriteFile(dest, []byte(text), 0o666); werr != nil {
			err = outputError(loc, fmt.Sprintf("-I -o %s: cannot write it", dest), werr)
		}
	}
	if err == nil && o.failsOnStatus() && errors.Is(resp.Failure, schemes.ErrErrorStatus) {
		rep.failure, err = nil, resp.Failure
	}
	return true, err
}

// headText is what -I prints for a stat: the head as the server sent it
// when the protocol has one (HTTP), else the lines curl makes up for FTP
// and local files from the size and time — "Last-Modified:",
// "Content-Length:", "Accept-ranges: bytes", in curl's order for each (a
// local file's time last) — with CRLFs, as curl writes them. A directory
// gets its time only, as curl shows a local one.
func headText(r *schemes.Response, local bool) string {
	if r.Head != "" {
		return r.Head
	}
	var modified, length []string
	if !r.ModTime.IsZero() {
		modified = []string{"Last-Modified: " + r.ModTime.UTC().Format(http.TimeFormat) + "\r\n"}
	}
	if r.Size >= 0 && r.Kind != schemes.EntryDir {
		length = []string{"Content-Length: " + strconv.FormatInt(r.Size, 10) + "\r\n", "Accept-ranges: bytes\r\n"}
	}
	if local {
		return strings.Join(append(length, modified...), "")
	}
	return strings.Join(append(modified, length...), "")
}
