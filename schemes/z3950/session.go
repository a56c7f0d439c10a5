package z3950

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/urlget/urlget/internal/ber"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// maxAPDU is the most octets one reply may have, and the message sizes
// the Init asks for: a Present of many records is cut by the server to
// fit (Z39.50-1995 §3.3.3), so a listing of any length stays within it.
const maxAPDU = 4 << 20

// session is one Z39.50 association: its connection and trace scope.
type session struct {
	c     net.Conn
	br    *bufio.Reader
	tr    schemes.Trace
	z     *URL
	done  bool // Close was exchanged, or the connection is closed
	key   schemes.ConnKey
	conns schemes.Conns // where keep puts it; nil: nowhere
}

var _ schemes.Session = (*session)(nil)

// Conn is the session's connection, for the pool.
func (s *session) Conn() net.Conn { return s.c }

// Unread is what the session's reader holds beyond the replies read, for
// the pool: an APDU nobody asked for.
func (s *session) Unread() int { return s.br.Buffered() }

// Close ends an idle session as the pool does: Close exchanged within
// closeWait, then the connection closed.
func (s *session) Close() error {
	s.c.SetDeadline(time.Now().Add(closeWait))
	s.done = false // kept (done for its last request), not yet closed
	return s.close()
}

// closeWait bounds the Close exchange of a session the pool ends.
const closeWait = 2 * time.Second

// poolKey is the key of sessions to z's server: the two schemes share
// them (a Retrieval URL after a search of the same server needs no new
// association).
func poolKey(req *schemes.Request, z *URL) schemes.ConnKey {
	key, _ := schemes.NewConnKey(req, schemeSession, z.u.Host, z.u.EffectivePort(), false, "", "")
	return key
}

// begin starts a request's search on a session from req.Conns (Init
// done; the association is kept between URLs to the same server), or a
// new one, and returns the session, the request's to keep or end, with
// the hit count. A kept session the server closed while it was idle is
// found stale, and dialed again once (transport.UseFirst).
func begin(ctx context.Context, req *schemes.Request, z *URL, words []string) (*session, int64, error) {
	var count int64
	s, err := transport.UseFirst(ctx, req, poolKey(req, z), transport.First[*session]{
		Scheme: z.Scheme(), Noun: "association", Peer: "with " + z.u.HostPort(),
		Dial: func(ctx context.Context) (*session, error) { return open(ctx, req, z) },
		Resume: func(s *session, tr schemes.Trace) {
			s.z, s.done, s.tr = z, false, tr
		},
		Exchange: func(s *session) (err error) {
			count, err = s.search(words)
			return err
		},
		Drop: (*session).abort,
	})
	return s, count, err
}

// keep ends a request's use of s, whose replies were read whole: kept in
// the request's Conns for the next URL to the server, or ended with
// Close.
func (s *session) keep() error {
	if s.done {
		return nil
	}
	if s.conns == nil || !s.key.Pooled() {
		return s.close()
	}
	s.done = true
	s.conns.Keep(s.key, s)
	return nil
}

// open connects to z's server and exchanges Init; a refusal is
// KindPermission. begin uses it when no pooled session serves.
func open(ctx context.Context, req *schemes.Request, z *URL) (*session, error) {
	if err := ctx.Err(); err != nil {
		return nil, schemes.IOError(z.Scheme(), "dial", err)
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: z.Scheme(), Phase: "dial", Kind: schemes.KindOther, Msg: "no Dialer in the request"}
	}
	tr := schemes.NewScope(req.Trace)
	c, err := req.Dialer.Dial(schemes.WithTrace(ctx, tr), z.Scheme(), z.u.Host, z.u.EffectivePort())
	if err != nil {
		return nil, err
	}
	c, _ = transport.Bound(ctx, c)
	if req.Timeout > 0 {
		c.SetDeadline(time.Now().Add(req.Timeout))
	}
	s := &session{c: c, br: bufio.NewReaderSize(c, 32<<10), tr: tr, z: z,
		key: poolKey(req, z), conns: req.Conns}
	n, err := s.exchange("init", initRequest(maxAPDU), describeInit())
	if err != nil {
		s.abort()
		return nil, err
	}
	r, err := decodeInit(&n)
	if err != nil {
		s.abort()
		return nil, s.ioError("init", err)
	}
	s.tr.Received(describeInitResponse(r))
	if !r.accepted {
		s.abort()
		return nil, &schemes.Error{Scheme: z.Scheme(), Phase: "init", Kind: schemes.KindPermission, Msg: "the server refused the session (InitializeResponse result false)"}
	}
	return s, nil
}

// exchange sends apdu, traced as what, and reads and decodes the reply.
func (s *session) exchange(phase string, apdu []byte, what string) (node, error) {
	if err := s.send(phase, apdu, what); err != nil {
		return node{}, err
	}
	return s.receive(phase)
}

// send sends apdu, traced as what.
func (s *session) send(phase string, apdu []byte, what string) error {
	s.tr.Sent(what)
	if _, err := s.c.Write(apdu); err != nil {
		return s.ioError(phase, err)
	}
	return nil
}

// receive reads and decodes the next reply.
func (s *session) receive(phase string) (node, error) {
	b, err := readAPDU(s.br, maxAPDU)
	if err != nil {
		return node{}, s.ioError(phase, err)
	}
	n, err := decode(b)
	if err != nil {
		return node{}, s.ioError(phase, err)
	}
	return n, nil
}

// ioError makes err a *schemes.Error: unreadable or oversized replies and
// the server's Close are protocol errors.
func (s *session) ioError(phase string, err error) error {
	var be *berError
	var ce *closedError
	switch {
	case errors.Is(err, ber.ErrTooLong):
		return &schemes.Error{Scheme: s.z.Scheme(), Phase: phase, Kind: schemes.KindProtocol, Msg: fmt.Sprintf("a reply longer than %d bytes", maxAPDU)}
	case errors.As(err, &be):
		return &schemes.Error{Scheme: s.z.Scheme(), Phase: phase, Kind: schemes.KindProtocol, Msg: "unreadable reply: " + be.msg}
	case errors.Is(err, ber.ErrMalformed):
		return &schemes.Error{Scheme: s.z.Scheme(), Phase: phase, Kind: schemes.KindProtocol, Msg: "unreadable reply: " + err.Error()}
	case errors.As(err, &ce):
		s.tr.Received("Close " + ce.Error())
		return &schemes.Error{Scheme: s.z.Scheme(), Phase: phase, Kind: schemes.KindProtocol, Msg: ce.Error()}
	}
	return schemes.IOError(s.z.Scheme(), phase, err)
}

// diagError is the error a diagnostic means: an unknown database is
// KindNotFound, access control KindPermission, the rest the server's
// refusal.
func (s *session) diagError(phase string, d diagnostic) error {
	kind := schemes.KindProtocol
	switch d.condition {
	case diagDatabaseUnavailable, diagNoSuchDatabase:
		kind = schemes.KindNotFound
	case diagAccessControl, diagDatabaseDenied, diagBadLogin:
		kind = schemes.KindPermission
	}
	return &schemes.Error{Scheme: s.z.Scheme(), Phase: phase, Kind: kind, Msg: "the server answered diagnostic " + schemes.Printable(d.String(), 300)}
}

// search sends the SearchRequest for words and returns the hit count.
func (s *session) search(words []string) (int64, error) {
	n, err := s.exchange("search", searchRequest(s.z.databases(), words), describeSearch(s.z.databases(), words))
	if err != nil {
		return 0, err
	}
	r, err := decodeSearch(&n)
	if err != nil {
		return 0, s.ioError("search", err)
	}
	s.tr.Received(fmt.Sprintf("SearchResponse searchStatus=%t resultCount=%d", r.status, r.count))
	if r.diag != nil {
		s.tr.Received("Diagnostic " + r.diag.String())
		return 0, s.diagError("search", *r.diag)
	}
	if !r.status {
		return 0, &schemes.Error{Scheme: s.z.Scheme(), Phase: "search", Kind: schemes.KindProtocol, Msg: "the search failed (searchStatus false) without a diagnostic"}
	}
	if r.count < 0 {
		return 0, s.ioError("search", berErrorf("negative resultCount %d", r.count))
	}
	return r.count, nil
}

// present asks for n records from start and returns those the server
// sent (fewer when its message size is reached).
func (s *session) present(start, n int) (presentResult, error) {
	if err := s.askPresent(start, n); err != nil {
		return presentResult{}, err
	}
	return s.readPresent(n)
}

// askPresent sends the PresentRequest for n records from start, whose
// response readPresent reads: the association's one request under way.
func (s *session) askPresent(start, n int) error {
	syntax, esn := s.z.syntax(), s.z.esn()
	return s.send("present", presentRequest(start, n, syntax, esn), describePresent(start, n, syntax, esn))
}

// readPresent reads the response to the PresentRequest for n records
// askPresent sent.
func (s *session) readPresent(n int) (presentResult, error) {
	p, err := s.receive("present")
	if err != nil {
		return presentResult{}, err
	}
	r, err := decodePresent(&p, n)
	if err != nil {
		return r, s.ioError("present", err)
	}
	s.tr.Received(fmt.Sprintf("PresentResponse numberOfRecordsReturned=%d nextResultSetPosition=%d presentStatus=%d", r.returned, r.next, r.status))
	if r.diag != nil {
		s.tr.Received("Diagnostic " + r.diag.String())
		return r, s.diagError("present", *r.diag)
	}
	for _, rec := range r.records {
		switch {
		case rec.diag != nil:
			s.tr.Received("record: Diagnostic " + rec.diag.String())
		default:
			s.tr.Received(fmt.Sprintf("record: %s, %d bytes", syntaxName(rec.syntax), len(rec.data)))
		}
	}
	return r, nil
}

// close ends the association with Close (Z39.50-1995 §3.2.11), waiting
// for the server's Close, then the connection.
func (s *session) close() error {
	if s.done {
		return nil
	}
	s.done = true
	defer s.c.Close()
	n, err := s.exchange("close", closeRequest(), "Close closeReason=finished")
	if err != nil {
		return err
	}
	if err := expect(&n, pduClose); err != nil {
		return s.ioError("close", err)
	}
	reason, _ := n.ctx(211).int()
	s.tr.Received(fmt.Sprintf("Close closeReason=%d", reason))
	return nil
}

// abort closes the connection without a Close: after an error, the
// session is out of step.
func (s *session) abort() {
	if !s.done {
		s.done = true
		s.c.Close()
	}
}
