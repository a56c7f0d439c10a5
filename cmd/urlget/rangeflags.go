package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/internal/curldate"
	"github.com/urlget/urlget/schemes"
)

// rangeFlags are -r and -z as given, and what they say.
type rangeFlags struct {
	rangeArg, timeArg string
	// ranges are -r's byte ranges, nil without it.
	ranges []schemes.ByteRange
	// since is -z's time, zero without it (or for a -z that named
	// neither a date nor a file); unmodified says -z -TIME: only if not
	// modified after it.
	since      time.Time
	unmodified bool
}

// addRangeFlags defines -r/--range and -z/--time-cond, curl's.
func addRangeFlags(fs *pflag.FlagSet, o *options) {
	fs.StringVarP(&o.rangeFlags.rangeArg, "range", "r", "", "retrieve only the bytes of `RANGE`, as curl: N-M, N- (from N on), -N (the last N); "+
		"http(s) also several, 0-0,-1 (written as the server sends them); ftp, http(s), file, wais")
	fs.StringVarP(&o.rangeFlags.timeArg, "time-cond", "z", "", "retrieve only if modified after `TIME`: a date as curl reads it, "+
		"or the mtime of the file TIME; -TIME: only if not modified after it (http If-Modified-Since/If-Unmodified-Since, ftp MDTM, file mtime)")
}

// checkRangeFlags reads -r and -z and refuses what they cannot go with.
// A -z that is neither a date nor a file is warned about on stderr
// (unless -s) and dropped, as curl does: `-z FILE -o FILE` then
// retrieves FILE the first time.
func (o *options) checkRangeFlags(fs *pflag.FlagSet, stderr io.Writer) error {
	rf := &o.rangeFlags
	if fs.Changed("range") {
		rs, err := schemes.ParseByteRanges(rf.rangeArg)
		if err != nil {
			return fmt.Errorf("-r %s: %v", rf.rangeArg, err)
		}
		rf.ranges = rs
	}
	if fs.Changed("time-cond") {
		t, unmodified, err := parseTimeCond(rf.timeArg)
		var nt noTime
		switch {
		case errors.As(err, &nt):
			if !o.silent {
				fmt.Fprintf(stderr, "urlget: %s\n", forPeople(err.Error()))
			}
		case err != nil:
			return err
		}
		rf.since, rf.unmodified = t, unmodified
	}
	ranged, timed := rf.ranges != nil, fs.Changed("time-cond")
	switch {
	case ranged && o.resume:
		return errors.New("-r and -C -: a range is a transfer of its own, which -C - does not continue (give one of them, as with curl)")
	case ranged && o.segments > 1:
		return errors.New("-r and --segments: a range is fetched over one connection")
	case (ranged || timed) && o.head:
		return fmt.Errorf("-I and %s: -I shows the metadata of the whole resource", rangeOrTime(ranged))
	}
	return nil
}

// rangeOrTime names -r or -z, for a refusal.
func rangeOrTime(ranged bool) string {
	if ranged {
		return "-r"
	}
	return "-z"
}

// noTime is a -z that names neither a date nor a file: a warning, as
// curl gives, not a failure.
type noTime struct{ arg string }

func (n noTime) Error() string {
	return fmt.Sprintf("-z %s: neither a date (as curl reads them: \"Sun, 06 Nov 1994 08:49:37 GMT\", \"20 Jan 2025\") "+
		"nor an existing file: retrieving without a time condition", n.arg)
}

// parseTimeCond reads -z's TIME as curl does: "-" before it asks for
// "not modified after" (If-Unmodified-Since), "+" (or nothing) for
// "modified after" (If-Modified-Since); then a date (curl_getdate's
// forms), else the name of a file whose mtime is the time. Neither is
// noTime; curl's undocumented "=" (modified exactly then) is refused.
func parseTimeCond(arg string) (t time.Time, unmodified bool, err error) {
	v := arg
	switch {
	case strings.HasPrefix(v, "-"):
		v, unmodified = v[1:], true
	case strings.HasPrefix(v, "+"):
		v = v[1:]
	case strings.HasPrefix(v, "="):
		return time.Time{}, false, fmt.Errorf("-z %s: \"=\" (modified exactly then) is not a condition urlget has: -z DATE or -z -DATE", arg)
	}
	if t, ok := curldate.Parse(v); ok {
		return t, unmodified, nil
	}
	if fi, err := os.Stat(v); err == nil {
		return fi.ModTime(), unmodified, nil
	}
	return time.Time{}, false, noTime{arg}
}

// request is the fetch.Request of a retrieval of loc: -r's range, -z's
// condition, and the URLs after it (next).
func (o *options) request(loc schemes.Locator, next []schemes.Locator) *fetch.Request {
	req := &fetch.Request{URL: loc, Next: next, NextShared: o.parallel, Ranges: o.rangeFlags.ranges}
	if t := o.rangeFlags.since; !t.IsZero() {
		if o.rangeFlags.unmodified {
			req.IfUnmodifiedSince = t
		} else {
			req.IfModifiedSince = t
		}
	}
	return req
}

// unmet says on stderr (unless -s) that a time condition left loc
// unretrieved, and so nothing was written: curl says nothing, but exits
// 0 all the same.
func (o *options) unmet(loc schemes.Locator, notModified, changed bool) {
	if o.silent || !notModified && !changed {
		return
	}
	when := o.rangeFlags.since.UTC().Format(http.TimeFormat)
	what := "not modified since " + when + " (-z)"
	if changed {
		what = "modified after " + when + " (-z -TIME)"
	}
	o.con.say(loc.Redacted() + ": " + what + ": nothing retrieved")
}
