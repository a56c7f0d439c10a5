package wais

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urlget/urlget/schemes"
)

// docReader streams a document: one byte-range retrieval per chunk of
// chunkSize, on one connection, until the length the URL gave or, with
// none, the first short chunk, a reply without text or a diagnostic
// (wais-notes §6).
type docReader struct {
	ctx    context.Context
	s      *session
	closed bool
	db     string
	d      document
	pos    int64  // the next byte to ask for: the range's first, then past those received
	limit  int64  // the byte after the last one asked for (a range's end), 0: the document's end
	buf    []byte // received, not yet read
	done   bool
	err    error
}

// Read returns buffered bytes, fetching the next chunk when none are.
// After its context ends it returns the context's error, even with bytes
// buffered or the document read whole: a caller that asked to stop must
// not see the fetch succeed.
func (r *docReader) Read(p []byte) (int, error) {
	if r.err == nil {
		if err := r.ctx.Err(); err != nil {
			r.err = r.s.ioError("retrieve", err)
		}
	}
	for len(r.buf) == 0 || r.err != nil {
		if r.err != nil {
			return 0, r.err
		}
		if r.done {
			return 0, io.EOF
		}
		if err := r.next(); err != nil {
			r.err = err
			return 0, err
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// Close gives the connection back for the next request when the whole
// document was read, else closes it (a reply may be under way).
func (r *docReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.done && r.err == nil && len(r.buf) == 0 {
		r.s.keep()
		return nil
	}
	r.s.close()
	return nil
}

// next retrieves the next chunk into buf, or sets done. Only the first
// chunk's exchange may meet a stale pooled connection (Handler.first);
// a failure of a later one is the request's (fetch retries it, resuming).
func (r *docReader) next() error {
	what, apdu := r.ask()
	rp, err := r.s.exchange("retrieve", what, apdu, 0) // a retrieval lists no hits
	if err != nil {
		return err
	}
	return r.take(rp)
}

// ask is the retrieval of the next chunk: its trace line and its APDU.
func (r *docReader) ask() (string, []byte) {
	end := r.end()
	return fmt.Sprintf("Retrieve DocID=%s %s bytes %d-%d", printableDocID(r.d.docID), r.d.wtype, r.pos, end),
		retrieveAPDU(r.db, r.d.docID, r.d.wtype, r.pos, end)
}

// end is where the next chunk ends.
func (r *docReader) end() int64 {
	end := r.pos + chunkSize
	if r.d.length > 0 {
		end = min(end, r.d.length)
	}
	if r.limit > 0 {
		end = min(end, r.limit)
	}
	return end
}

// take puts the reply to the next chunk's retrieval into buf, or sets
// done, or fails.
func (r *docReader) take(rp *reply) error {
	want := r.end() - r.pos
	var text []byte
	for _, t := range rp.texts {
		text = append(text, t...)
	}
	r.s.tr.Received(fmt.Sprintf("DocumentText %d bytes", len(text)))
	for _, d := range rp.diags {
		r.s.tr.Received("Diagnostic " + d.String())
	}
	if rp.moreDiags > 0 {
		r.s.tr.Info(fmt.Sprintf("%d more diagnostics not shown", rp.moreDiags))
	}
	if int64(len(text)) > want {
		text = text[:want] // never more than asked
	}
	if r.pos == 0 && len(text) == 0 && len(rp.diags) > 0 {
		// "Bad DocID", "Request out of range": no such document. The
		// second is also what an empty document's byte 0 gets, and
		// nothing on the wire tells them apart (wais-notes §6).
		err := r.s.diagError("retrieve", rp.diags[0], schemes.KindNotFound)
		if se, ok := err.(*schemes.Error); ok && strings.Contains(strings.ToLower(rp.diags[0].msg), "out of range") {
			se.Msg = "the server has no byte 0 of this document (" + se.Msg + "): its DocID is not one the server serves, or the document is empty"
		}
		return err
	}
	r.pos += int64(len(text))
	r.buf = text
	short := int64(len(text)) < want
	switch {
	case r.d.length > 0 && r.pos >= r.d.length, r.limit > 0 && r.pos >= r.limit:
		r.done = true
	case r.d.length > 0 && short:
		why := "a reply without the rest"
		if len(rp.diags) > 0 {
			why = "the diagnostic " + rp.diags[0].String()
		}
		r.err = &schemes.Error{Scheme: "wais", Phase: "retrieve", Kind: schemes.KindProtocol,
			Msg: fmt.Sprintf("the document ended at byte %d of the %d the URL gives (%s)", r.pos, r.d.length, why)}
	case r.d.length <= 0 && (short || len(rp.diags) > 0):
		r.done = true
	}
	return nil
}
