package telnet

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// DefaultIdle is how long a scripted session waits, once its input has
// ended, for the server to fall silent before it closes the connection.
const DefaultIdle = 2 * time.Second

// Handler opens telnet: URLs as the built-in Telnet client (RFC 854, 855)
// and refuses rlogin: and tn3270: with a hint.
//
// A telnet URL designates an interactive service, not a data object (RFC
// 1738 §3.8), so Fetch does not return the service's output as a body: it
// runs the whole session on the Handler's own streams — Stdin to the server,
// the server to Stdout — and returns, once the session is over, a Response
// with an empty Body (Size 0). Its error is nil when the server closed the
// connection or, in a scripted session, when the input ended and the server
// then fell silent for Idle.
//
// Two modes:
//
//   - Interactive (Terminal set and Stdin an *os.File terminal): the
//     terminal is put in raw mode (restored on every way out), the window
//     size is sent by NAWS and again on SIGWINCH, and Ctrl-] offers to quit.
//   - Scripted (otherwise): Stdin's lines are sent as NVT lines (LF becomes
//     CR LF), streamed or, with Pace, a line per server answer; the
//     server's CR LF becomes LF on Stdout.
//
// Option negotiation follows the Q method of RFC 1143. urlget never opens
// negotiation itself: a "telnet" URL often names a plain line service, which
// would read IAC bytes as text. It accepts the server's offers of ECHO,
// SUPPRESS-GO-AHEAD and BINARY, and agrees to send TERMINAL-TYPE (RFC 1091,
// from $TERM when interactive, "dumb" when scripted) and NAWS (RFC 1073, interactive only); it refuses
// every other option politely (DONT/WONT, once per request).
//
// The URL's user and password are advisory (RFC 1738 §3.8): the user is
// shown as "suggested login: USER" on Stderr before connecting. With Login
// set, they are typed at the server's "login:" and "Password:" prompts
// (the password may come from Request.Credentials or Request.Prompt when
// the URL has none).
//
// The zero Handler uses the process's standard streams with Terminal off.
// A Handler holds configuration only and is safe for concurrent use, though
// sessions sharing one terminal would make little sense.
type Handler struct {
	Stdin  io.Reader // what the user types; nil means os.Stdin
	Stdout io.Writer // the session's output; nil means os.Stdout
	Stderr io.Writer // notes for the user; nil means os.Stderr
	// Terminal enables interactive mode when Stdin is a terminal.
	Terminal bool
	// TermType is sent as the TERMINAL-TYPE; "" means $TERM (or
	// "unknown") in an interactive session and "dumb" in a scripted one,
	// whose output goes to a pipe or file where a server's cursor and
	// colour sequences would only be noise.
	TermType string
	// Login types the URL's user and password at the login prompts.
	Login bool
	// Idle is the silence, after Stdin ends, that ends a scripted
	// session; 0 means DefaultIdle.
	Idle time.Duration
	// Pace, when positive, sends a scripted session's input one line at a
	// time: each line once the server has answered the previous one and
	// then paused for Pace (or has been silent for Idle). It is for
	// servers that discard input typed ahead, as login(1) does at its
	// prompts; 0 streams the input as it comes.
	Pace time.Duration

	// words name the login option in messages as the caller does (the
	// declaration's Values).
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
)

// Fetch runs a telnet session for req.URL; see Handler.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	loc, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if err := unsupported(loc); err != nil {
		return nil, err
	}
	if req.Dialer == nil {
		return nil, &schemes.Error{Scheme: "telnet", Phase: "dial", Kind: schemes.KindOther,
			Msg: "no Dialer in the request"}
	}
	tr := req.Trace
	if tr == nil {
		tr = schemes.NopTrace{}
	}
	g := loc.Generic()
	if g.User != nil && *g.User != "" {
		fmt.Fprintf(h.stderr(), "suggested login: %s\n", *g.User)
	}
	var cred *login
	if h.Login {
		if cred, err = h.credentials(ctx, loc, req); err != nil {
			return nil, err
		}
		tr.Secret(cred.password)
	}
	if err := ctx.Err(); err != nil {
		return nil, ioError("dial", err)
	}
	// The connection's lines, and the Dialer's notes about it, go to a
	// scope of their own.
	tr = schemes.NewScope(tr)
	conn, err := req.Dialer.Dial(schemes.WithTrace(ctx, tr), "telnet", g.Host, g.EffectivePort())
	if err != nil {
		return nil, err
	}
	s := h.newSession(loc, conn, tr, cred)
	if err := s.run(ctx); err != nil {
		return nil, err
	}
	return &schemes.Response{Body: io.NopCloser(strings.NewReader("")), Size: 0}, nil
}

// Explain returns the plan: the connection, the advisory login, what
// urlget agrees to in option negotiation and how the session ends.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	loc, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	if err := unsupported(loc); err != nil {
		return nil, err
	}
	g := loc.Generic()
	plan := []string{"connect " + net.JoinHostPort(g.Host, strconv.Itoa(g.EffectivePort())) + " (telnet, RFC 854)"}
	if g.User != nil && *g.User != "" {
		plan = append(plan, "suggested login: "+*g.User+" (advisory, RFC 1738 §3.8)")
	}
	if h.Login {
		plan = append(plan, "at \"login:\" type the user; at \"Password:\" type ****")
	}
	interactive := h.interactive()
	naws := "WILL NAWS (window size, updated on resize)"
	if !interactive {
		naws = "WONT NAWS (no terminal)"
	}
	plan = append(plan,
		"negotiation: Q method (RFC 1143); urlget waits for the server to open it",
		"agree: DO ECHO, DO SUPPRESS-GO-AHEAD, DO BINARY",
		"agree: WILL SUPPRESS-GO-AHEAD, WILL BINARY, WILL TERMINAL-TYPE ("+h.termType()+")",
		"agree: "+naws,
		"refuse: every other option (DONT/WONT)")
	if interactive {
		plan = append(plan, "session: interactive, terminal in raw mode; Ctrl-] offers to quit")
	} else {
		plan = append(plan, fmt.Sprintf("session: stdin to the server, the server to stdout; ends on server close, or %v of silence after stdin ends", h.idle()))
		if h.Pace > 0 {
			plan = append(plan, fmt.Sprintf("input: one line at a time, each once the server has answered and paused for %v", h.Pace))
		}
	}
	return plan, nil
}

// unsupported refuses rlogin and tn3270, which need clients urlget lacks.
func unsupported(loc *URL) error {
	g := loc.Generic()
	var hint string
	switch g.Scheme {
	case "telnet":
		return nil
	case "rlogin":
		hint = "rlogin: sessions are not supported (no rlogin client built in; the rlogin protocol is obsolete and unencrypted); try `ssh " + userAt(g) + g.Host + "` or `rlogin " + userAt(g) + g.Host + "`"
	default:
		hint = "tn3270: sessions are not supported (no 3270 terminal emulation built in); try `x3270 " + g.Host + "` or `c3270 " + g.Host + "`"
	}
	return &schemes.Error{Scheme: g.Scheme, Phase: "fetch", Kind: schemes.KindUnsupported,
		Part: "scheme", Msg: hint}
}

func userAt(g *schemes.URL) string {
	if g.User != nil && *g.User != "" {
		return *g.User + "@"
	}
	return ""
}

func (h *Handler) stdin() io.Reader {
	if h.Stdin != nil {
		return h.Stdin
	}
	return os.Stdin
}

func (h *Handler) stdout() io.Writer {
	if h.Stdout != nil {
		return h.Stdout
	}
	return os.Stdout
}

func (h *Handler) stderr() io.Writer {
	if h.Stderr != nil {
		return h.Stderr
	}
	return os.Stderr
}

func (h *Handler) idle() time.Duration {
	if h.Idle > 0 {
		return h.Idle
	}
	return DefaultIdle
}

func (h *Handler) termType() string {
	t := h.TermType
	if t == "" && !h.interactive() {
		t = "dumb"
	}
	if t == "" {
		t = os.Getenv("TERM")
	}
	if t == "" {
		t = "unknown"
	}
	return t
}

// terminalFD returns Stdin's descriptor when the session is interactive.
func (h *Handler) terminalFD() (int, bool) {
	if !h.Terminal {
		return 0, false
	}
	f, ok := h.stdin().(*os.File)
	if !ok || !isTerminal(int(f.Fd())) {
		return 0, false
	}
	return int(f.Fd()), true
}

func (h *Handler) interactive() bool {
	_, ok := h.terminalFD()
	return ok
}

// login is what --login types.
type login struct {
	user, password string
}

// credentials finds the user and password for Login: the URL's, else
// req.Credentials'; a missing password is asked for when there is a
// terminal.
func (h *Handler) credentials(ctx context.Context, loc *URL, req *schemes.Request) (*login, error) {
	g := loc.Generic()
	var l login
	hasPass := false
	if g.User != nil && *g.User != "" {
		l.user = *g.User
		if g.Password != nil {
			l.password, hasPass = *g.Password, true
		}
	} else if req.Credentials != nil {
		u, p, ok := req.Credentials("telnet", g.Host, g.EffectivePort())
		if ok && u != "" {
			l.user, l.password, hasPass = u, p, p != ""
		}
	}
	if l.user == "" {
		return nil, &schemes.Error{Scheme: "telnet", Phase: "login", Kind: schemes.KindUsage,
			Part: "user", Msg: h.words.Option("login") + " needs a user: put it in the URL (telnet://user:password@host/) or use -u USER:PASSWORD"}
	}
	if !hasPass && req.Prompt != nil {
		p, err := req.Prompt(ctx, fmt.Sprintf("Password for %s@%s: ", l.user, g.Host), true)
		if err == nil {
			l.password, hasPass = p, true
		}
	}
	if !hasPass {
		return nil, &schemes.Error{Scheme: "telnet", Phase: "login", Kind: schemes.KindUsage,
			Part: "password", Msg: h.words.Option("login") + " needs a password: put it in the URL or use -u USER:PASSWORD"}
	}
	for part, v := range map[string]string{"user": l.user, "password": l.password} {
		if strings.ContainsAny(v, "\r\n\x00") {
			return nil, &schemes.Error{Scheme: "telnet", Phase: "login", Kind: schemes.KindSafety,
				Part: part, Msg: "decoded CR, LF or NUL in the " + part + " would type more than one line"}
		}
	}
	return &l, nil
}
