package fetch

import (
	"context"
	"fmt"
	"io"

	"github.com/urlget/urlget/schemes"
)

// Stream retrieves req (MethodGet, from byte 0, or a byte range:
// Offset, Length, Suffix, Ranges; Stream sets Partial itself) and copies
// its body to w (the command's standard output) with CopyBody's checks
// and limits, as one transfer that the Client tries at most Retries+1
// times, each attempt bounded by MaxTime, like Download. A later attempt
// asks for the rest, after the bytes w took, under the resume rule (the
// first response's record, as a partial copy's); bytes that went to w
// cannot be taken back, so a server that would send them again (or a
// different resource) ends the transfer (KindProtocol). A byte range is
// copied exactly (see Request.Offset), progress counting its bytes; the
// reply to several ranges as the server sent it, which a later attempt
// cannot continue. w may be any writer: a terminal or another device,
// which could refuse a splice(2) after the kernel took the bytes off the
// socket, is written by copying (transport.SpliceSafe), so the caller
// need not hide its file's ReadFrom.
//
// A response with no body to copy — a listing, or a URL resolved to a
// scheme that is started by hand — is returned open, unread, for the
// caller to show and Close; MaxTime goes on bounding the reading of its
// Listing. Otherwise the Response returned is closed and describes the
// last answer (its URL after redirects, its size and type; NotModified
// or Changed when a time condition left it unsent, and nothing was
// written). n counts the bytes written to w by every attempt. On a
// failure the last answer's Response comes with the error, nil when no
// server answered.
func (c *Client) Stream(ctx context.Context, req *Request, w io.Writer, progress func(done, total int64)) (resp *Response, n int64, err error) {
	loc := req.URL
	if req.method() != MethodGet || req.Partial != (schemes.Partial{}) {
		return nil, 0, &schemes.Error{Scheme: loc.Generic().Scheme, Phase: "fetch", Kind: schemes.KindUsage, URL: loc.Redacted(),
			Msg: "a stream is a get of a resource or a byte range of it (later attempts continue after the bytes written)"}
	}
	ctx = c.withNext(ctx, req)
	var partial schemes.Partial
	rs := c.newRetries()
	rng := askedOf(req)
	err = c.retryUnder(ctx, rs, func(ctx context.Context, hold func(*Response)) error {
		try, done := rng.next(n, partial, c.Caps(loc).Has(schemes.Resumes))
		if done {
			return nil
		}
		r, err := c.once(ctx, try)
		if err == nil {
			req.answered(r)
			err = rs.page(r)
		}
		if err != nil {
			return err
		}
		resp = r
		if n == 0 && r.Body == nil {
			hold(r) // the caller's to show
			return nil
		}
		defer r.Close()
		if r.NotModified || r.Changed {
			return nil // a time condition left it unsent: nothing to write
		}
		if n == 0 {
			rng.place(r)
			rec := recordOf(r.Response)
			partial = schemes.Partial{Record: &rec}
		} else {
			r.first = rng.first
		}
		if err := continues(r, n, rng.first+n); err != nil {
			return err
		}
		m, err := c.CopyBody(ctx, w, r, progress)
		n += m
		return err
	}, func() string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("; resuming at byte %d", rng.first+n)
	})
	return resp, n, err
}

// continues checks that r, a later attempt's answer, continues the n bytes
// already written where they cannot be taken back: it starts at byte at.
func continues(r *Response, n, at int64) error {
	msg := ""
	switch {
	case n == 0 || (r.Body != nil && r.Offset == at):
		return nil
	case r.Body == nil || r.Offset == 0:
		msg = fmt.Sprintf("the server sent the resource from its start again; %d bytes of it are already written and cannot be taken back", n)
	default:
		msg = fmt.Sprintf("asked to resume at %d, server resumed at %d", at, r.Offset)
	}
	return &schemes.Error{Scheme: r.URL.Generic().Scheme, Phase: "resume", Kind: schemes.KindProtocol, URL: r.URL.Redacted(), Msg: msg}
}
