package finger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// DefaultMax is the most bytes a reply may have when Handler.Max is 0: a
// plan is a page of text, and a server that sends more than a mebibyte is
// not answering a finger query.
const DefaultMax = 1 << 20

// Handler retrieves finger URLs: it sends the RFC 1288 query line and
// hands back the reply, byte for byte, up to where the server closes the
// connection (§2.1). It dials only through the request's Dialer, holds
// configuration only, and is safe for concurrent use.
type Handler struct {
	// Forward sends queries that ask the server to pass them on
	// ("user@host2"); without it they fail with KindSafety before
	// anything is dialed: RFC 1288 §3.2.1 says servers should refuse
	// forwarding, and a client should not make one reach further.
	Forward bool
	// Max is the most bytes a reply may have; 0 means DefaultMax. A
	// longer one fails with KindProtocol after Max bytes were read.
	Max int64

	// words name the options in messages and plans as the caller does
	// (the declaration's Values).
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
)

// max is the reply bound in effect.
func (h *Handler) max() int64 {
	if h == nil || h.Max <= 0 {
		return DefaultMax
	}
	return h.Max
}

// query returns req's URL and the query line to send for it, or why
// none may be sent (check).
func (h *Handler) query(req *schemes.Request) (*URL, string, error) {
	f, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, "", err
	}
	q, err := h.check(f)
	return f, q, err
}

// check refuses what must not be sent: forwarding the person did not
// ask for, and (again, whoever built f) any byte that would end or split
// the query line.
func (h *Handler) check(f *URL) (string, error) {
	if len(f.Forward) > 0 && !h.Forward {
		return "", &schemes.Error{Scheme: scheme, Phase: "request", Kind: schemes.KindSafety, Part: "forward",
			Msg: fmt.Sprintf("the query asks %s to pass it on to %s (RFC 1288 §2.5.1 forwarding): give %s to send it",
				f.u.Host, strings.Join(f.Forward, " then "), h.words.Option(optForward))}
	}
	q := f.Query()
	if err := transport.CheckChars(scheme, "user", strings.TrimSuffix(q, crlf), transport.LineBreakers+"\t"); err != nil {
		return "", err
	}
	return q, nil
}

// Fetch sends the query and returns the reply as Body, read to the end
// the server makes by closing the connection, and bounded by Max.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	f, q, err := h.query(req)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		// Canceled already: no connection is opened to be thrown away.
		return nil, wrap("request", err)
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: scheme, Phase: "dial", Kind: schemes.KindOther, Msg: "no Dialer in the request"}
	}
	tr := schemes.NewScope(req.Trace)
	c, err := req.Dialer.Dial(schemes.WithTrace(ctx, tr), scheme, f.u.Host, f.u.EffectivePort())
	if err != nil {
		return nil, err
	}
	c, _ = transport.Bound(ctx, c)
	if req.Timeout > 0 {
		c.SetWriteDeadline(time.Now().Add(req.Timeout))
	}
	tr.Sent(strings.TrimSuffix(q, crlf))
	if _, err := io.WriteString(c, q); err != nil {
		c.Close()
		return nil, wrap("send", err)
	}
	return &schemes.Response{Body: &reply{c: c, left: h.max(), max: h.max(), opt: h.words.Option(optMax)},
		Kind: schemes.EntryFile, Size: -1, Type: "text/plain", Name: f.LocalName()}, nil
}

// reply is the reply's bytes, failing once more than max arrive.
type reply struct {
	c    io.ReadCloser
	left int64 // bytes still allowed
	max  int64
	opt  string // the option that sets max, in the caller's words
}

func (r *reply) Read(p []byte) (int, error) {
	if r.left == 0 {
		// One byte more says whether the server is done or over the
		// bound: a reply of exactly max bytes is whole.
		var one [1]byte
		n, err := r.c.Read(one[:])
		if n > 0 {
			return 0, &schemes.Error{Scheme: scheme, Phase: "read", Kind: schemes.KindProtocol,
				Msg: fmt.Sprintf("the reply is longer than %d bytes (%s)", r.max, r.opt)}
		}
		if err == nil {
			return 0, nil
		}
		return 0, readErr(err)
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.c.Read(p)
	r.left -= int64(n)
	return n, readErr(err)
}

// readErr passes io.EOF, the reply's end, and wraps anything else.
func readErr(err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		return err
	}
	return wrap("read", err)
}

func (r *reply) Close() error { return r.c.Close() }

// wrap turns an I/O error into a *schemes.Error (schemes.IOError); one of
// no known kind is the server's doing, a protocol error.
func wrap(phase string, err error) error {
	err = schemes.IOError(scheme, phase, err)
	if se, ok := err.(*schemes.Error); ok && se.Kind == schemes.KindOther && se.Msg == "" {
		se.Kind = schemes.KindProtocol
	}
	return err
}

// Explain returns the plan without any I/O: the connection, the query
// line (quoted, so that CRLF shows) and the reply's bound. A query that
// Fetch would refuse fails here alike.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	f, q, err := h.query(req)
	if err != nil {
		return nil, err
	}
	return []string{"connect " + f.u.HostPort(), "send " + strconv.Quote(q),
		fmt.Sprintf("read the reply until the server closes (at most %d bytes)", h.max())}, nil
}
