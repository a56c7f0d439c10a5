package schemes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"reflect"
	"time"
)

// Conns keeps idle protocol sessions between requests, so that the next
// request to the same server, with the same login and the same security,
// needs no new connection, greeting or login (RFC 1738 §3.2.5 for FTP;
// NNTP and WAIS servers answer on a connection until it is closed).
// transport.Pool implements it; the fetch Client gives every request its
// own.
//
// Lease and Keep are the whole contract of a pooled session's life: a
// handler leases, uses the session for one request, and either keeps it
// (the protocol state is known and the connection works) or closes it.
// Use wraps them for a request, and is where a stale session is re-dialed:
// handlers call it through UseSession and retry nothing themselves.
type Conns interface {
	// Lease takes an idle session that was kept under key and is still
	// alive, bound to ctx (canceling ctx fails its I/O, see
	// transport.Conn.Bind), or returns nil when there is none. When cost
	// is not nil, the candidate of the lowest cost is taken (an FTP
	// connection already in the right directory), the most recently kept
	// among equals.
	Lease(ctx context.Context, key ConnKey, cost func(Session) int) Session
	// Keep makes s idle under key: its context is detached and its
	// deadlines cleared. s is closed instead when its connection was
	// canceled or the pool is full. A handler keeps only a session whose
	// protocol state it knows; one it does not trust, it closes.
	Keep(key ConnKey, s Session)
	// Use runs use on a session for key: one leased as by Lease, else a
	// new one from dial. use owns the session it is given, whatever it
	// returns: it keeps it (Keep) or closes it, or hands it on to the
	// Response it makes.
	//
	// A leased session may be stale: the server closed it while it was
	// idle, just when it was leased or in a way the pool's checks could
	// not see. use reports stale (true) only when its first command on a
	// leased session met the end of the connection or a reset before any
	// reply (for FTP, also a 421 before any other reply: vsftpd's
	// "421 Timeout."): nothing the request asked for has happened yet.
	// A leased session that cannot serve the request at all, which use
	// finds before sending anything (an SMTP session without TLS for a
	// request that requires it), it closes and reports stale as well.
	// Then Use dials once and runs use again on the new session, and
	// returns what that second use returns; a stale report for a dialed
	// session, or after ctx is done, is not retried. So a request makes at
	// most one new connection for a stale one, whatever the pool holds;
	// the request's own retries are the fetch Client's (Retries).
	Use(ctx context.Context, key ConnKey, cost func(Session) int, dial DialFunc, use UseFunc) error
}

// IdleLimits bound the idle connections a Conns keeps: PerKey under one
// ConnKey, Total under all keys together, each for Timeout at most.
type IdleLimits struct {
	PerKey  int
	Total   int
	Timeout time.Duration
}

// IdleLimiter is implemented by a Conns that says how many idle
// connections it keeps (transport.Pool does). A handler that keeps idle
// connections outside Conns, in a pool of its own (the http handler's
// net/http Transports, whose keep-alive connections net/http must own),
// sizes that pool by the request's Conns' IdleLimits when it has them, so
// that a caller who sizes its Conns for N requests at once to one server
// has N kept for every scheme, not only for the sessions Conns holds
// itself. The values are the limits in force, and do not change while
// the Conns is in use; one of 0 or less leaves the handler's default.
type IdleLimiter interface {
	IdleLimits() IdleLimits
}

// DialFunc makes a new session for a request: it connects, greets, and
// logs in, as the handler does when no idle session can serve it.
type DialFunc func(ctx context.Context) (Session, error)

// UseFunc does a request's work on s, leased (from the pool) or not, and
// reports whether a failure found a leased s stale (see Conns.Use).
type UseFunc func(s Session, leased bool) (stale bool, err error)

// UseSession runs use on a session from conns (Conns.Use), or, when conns
// is nil or key is not pooled, on a new one from dial.
func UseSession(ctx context.Context, conns Conns, key ConnKey, cost func(Session) int, dial DialFunc, use UseFunc) error {
	if conns != nil && key.Pooled() {
		return conns.Use(ctx, key, cost, dial, use)
	}
	s, err := dial(ctx)
	if err != nil {
		return err
	}
	_, err = use(s, false)
	return err
}

// Session is a protocol session over one connection, as a pool keeps it:
// the scheme's own state (an FTP login and directory, a Gopher nothing)
// is the handler's business.
type Session interface {
	// Conn is the connection the session reads and writes (a TLS one
	// after an upgrade); the pool checks it is alive and binds it.
	Conn() net.Conn
	// Close ends the session politely where the protocol has a way (QUIT)
	// and closes the connection.
	Close() error
	// Unread is how many bytes the session has taken off its connection
	// and not consumed: what waits in its own read buffer, which the
	// pool cannot see. At rest a session whose server speaks only when
	// asked has none; one with some is out of step (a stray reply would
	// answer the next request's command), and the pool closes it rather
	// than keep or lend it.
	Unread() int
}

// SelfReader is implemented by a Session whose protocol library reads
// its connection all the time, on a goroutine of its own (SSH, whose
// server sends keepalives and window updates unasked): what the server
// sends is never left waiting, and nobody else may look at the socket (a
// peek would wait for that goroutine's read to end). The pool asks the
// session instead whether it is at rest: whether its connection is still
// up and no request is under way on it.
type SelfReader interface {
	Session
	AtRest() bool
}

// ConnKey says which idle sessions may serve a request: two sessions are
// interchangeable only when every part of their keys is equal. Make one
// with NewConnKey; the zero ConnKey is never pooled.
type ConnKey struct {
	Scheme string
	Host   string
	Port   int
	// dialer is the Dialer's identity: its port policy and proxy decide
	// where a connection really goes, and its TLS settings what a
	// connection trusts and proves (one made without certificate checks
	// must never serve a request that verifies them). A Dialer is not
	// modified while in use, so its identity stands for its settings.
	dialer any
	// tls says the session is (or will be) protected: a session in clear
	// never serves a request that requires TLS.
	tls bool
	// login is who the session is logged in as: the user and a digest of
	// the password, so that a key never holds a secret.
	login string
}

// NewConnKey makes the key of a session to host:port for scheme, dialed
// with req.Dialer (and so under its TLS settings), protected when useTLS
// says the session is or will be, and logged in as user with password (""
// for none). ok is
// false when the Dialer's value cannot be compared (a struct holding a
// slice): such sessions are not pooled.
func NewConnKey(req *Request, scheme, host string, port int, useTLS bool, user, password string) (key ConnKey, ok bool) {
	if req.Dialer != nil && !reflect.TypeOf(req.Dialer).Comparable() {
		return ConnKey{}, false
	}
	key = ConnKey{Scheme: scheme, Host: host, Port: port, dialer: req.Dialer, tls: useTLS}
	if user != "" || password != "" {
		sum := sha256.Sum256([]byte(user + "\x00" + password))
		key.login = user + "\x00" + hex.EncodeToString(sum[:])
	}
	return key, true
}

// Pooled reports whether k was made by NewConnKey (the zero key is not).
func (k ConnKey) Pooled() bool { return k.Scheme != "" }
