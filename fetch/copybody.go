package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/urlget/urlget/schemes"
)

// errCorrupt marks data that does not match the server's checksum.
var errCorrupt = errors.New("downloaded data does not match the server's checksum")

// verify checks a finished copy: done bytes held of a resource of total
// (-1: unknown), whose SHA-256 is sum (checked when want is set).
func verify(loc schemes.Locator, done, total int64, sum func() (string, error), want string) error {
	scheme := loc.Generic().Scheme
	switch {
	case total >= 0 && done < total:
		return &schemes.Error{Scheme: scheme, Phase: "verify", Kind: schemes.KindProtocol, Retryable: true,
			URL: loc.Redacted(), Msg: fmt.Sprintf("transfer truncated: got %d of %d bytes", done, total)}
	case total >= 0 && done > total:
		return &schemes.Error{Scheme: scheme, Phase: "verify", Kind: schemes.KindProtocol,
			URL: loc.Redacted(), Msg: fmt.Sprintf("got %d bytes, more than the %d the server announced", done, total)}
	case want == "":
		return nil
	}
	got, err := sum()
	if err != nil {
		return localError(loc, "verify", err)
	}
	if got != want {
		return &schemes.Error{Scheme: scheme, Phase: "verify", Kind: schemes.KindProtocol,
			URL: loc.Redacted(), Msg: fmt.Sprintf("SHA-256 %s, server says %s", got, want), Err: errCorrupt}
	}
	return nil
}

func hexSum(h hash.Hash) func() (string, error) {
	return func() (string, error) { return hex.EncodeToString(h.Sum(nil)), nil }
}

// CopyBody copies resp's Body to dst with every check and limit Download
// applies to a file, for a caller that writes elsewhere (the urlget
// command's standard output): MaxFileSize (refused before the first byte
// when the size is announced, else stopped as the limit is passed;
// KindSafety), LimitRate, progress reports at least every MiB and every
// 250 ms while data flows, the size check (fewer bytes than announced:
// "transfer truncated", KindProtocol, retryable), and the SHA-256 the
// server published, when the body is the whole resource (a mismatch is
// KindProtocol, wrapping an error that says so; the bytes have gone out by
// then). progress, if set, gets the bytes so far and resp.Size. For a
// byte range (Request.Offset without a Partial, Length, Suffix) all of
// these count the range's bytes: progress from 0 to its length,
// MaxFileSize and the size check against its length.
//
// The copy keeps the kernel's zero-copy paths between passes: into an
// *os.File that accepts splice(2) (a regular file, a pipe, /dev/null)
// from a body that is or wraps a file or socket. With a checksum to verify
// the bytes pass through memory.
//
// A failure while reading is classified like Download's: a transfer that
// broke is KindConnect or KindTimeout, retryable; a write to dst that
// failed is KindLocal (the disk is full, the reader of a pipe is gone).
// Reading resp.Body directly bypasses all of this, LimitRate included.
func (c *Client) CopyBody(ctx context.Context, dst io.Writer, resp *Response, progress func(done, total int64)) (int64, error) {
	if resp.Body == nil {
		return 0, &schemes.Error{Scheme: resp.URL.Generic().Scheme, Phase: "fetch", Kind: schemes.KindUsage, URL: resp.URL.Redacted(),
			Msg: "the response has no body (it is a listing)"}
	}
	end := resp.End()
	total := end // the bytes of the range asked for (Request.Offset, Length), counted from its first
	if end >= 0 {
		total -= resp.first
	}
	if err := c.refuseSize(resp.URL, total); err != nil {
		return 0, err
	}
	cp := c.newCopier(ctx, resp.URL, dst, resp.Offset-resp.first, total, progress)
	want := resp.SHA256
	if resp.Offset != 0 || end != resp.Size {
		want = "" // the sum covers bytes this body does not carry
	}
	if want != "" {
		cp.hash = sha256.New()
	}
	n, err := cp.run(resp.Body)
	if err != nil {
		return n, cp.classify(err)
	}
	return n, verify(resp.URL, cp.done, total, hexSum(cp.hash), want)
}

// classify says whose fault a failed copy is: dst's (a local write
// error), the limit's, or the transfer's.
func (c *copier) classify(err error) error {
	switch {
	case c.limit != nil:
		return c.limit
	case c.werr != nil:
		return localError(c.loc, "write", c.werr)
	}
	return interrupted(c.loc, err)
}

// interrupted classifies a failure of the source while copying a body
// (the copier tells the destination's apart): anything the handler has
// not classified is a transfer that broke (exit 5, retryable), the same
// for every scheme.
func interrupted(loc schemes.Locator, err error) error {
	var se *schemes.Error
	if errors.As(err, &se) {
		return withURL(err, loc)
	}
	e := schemes.IOError(loc.Generic().Scheme, "transfer", err).(*schemes.Error)
	e.URL = loc.Redacted()
	if e.Kind == schemes.KindOther {
		e.Kind, e.Retryable = schemes.KindConnect, true
	}
	if e.Msg == "" || e.Kind != schemes.KindCanceled {
		e.Msg = "transfer interrupted"
	}
	return e
}
