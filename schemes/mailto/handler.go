package mailto

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/urlget/urlget/schemes"
)

// DefaultSubmissionPort is the port used when the SMTP server is given
// without one: message submission (RFC 6409).
const DefaultSubmissionPort = 587

// Handler sends mail for mailto: URLs by SMTP submission (on
// github.com/emersion/go-smtp, over a connection from Request.Dialer).
//
// A mailto URL designates a mailbox, not a data object (RFC 1738 §3.5), so
// "retrieving" it means what a person opening it means: sending a message
// there. Fetch composes an RFC 5322 message — From, To, Cc, Subject, Date,
// Message-ID, MIME with RFC 2047 encoded words and a quoted-printable
// UTF-8 body where needed — from the URL's addresses and its RFC 6068
// header fields (subject, cc, bcc, body, and the safe keywords, comments,
// in-reply-to and references; other fields are ignored as unsafe). The
// body is the URL's body= field, else read from Stdin.
//
// On success Fetch returns a Response with an empty Body: a sent message
// has no content to show (the Message-ID is in the -v trace). With DryRun
// the Body is the composed message instead (LF line ends, for reading) and
// nothing is sent.
//
// Delivery: Server or $URLGET_SMTP as host[:port] (port 587 when absent);
// no server is a usage error saying how to set one. STARTTLS is used when
// the server offers it and required with Request.RequireTLS (--ssl-reqd);
// AUTH PLAIN or LOGIN with Request.Credentials (-u, netrc), only over TLS
// or to a loopback server so a password never crosses the network in
// clear.
//
// A CR, LF or NUL in an address or header field is refused (KindSafety,
// header injection); invalid addresses are a KindUsage error naming each.
type Handler struct {
	// From is the sender; "" means $URLGET_EMAIL, $EMAIL, else user@host.
	From string
	// Server is the submission server host[:port]; "" means $URLGET_SMTP.
	Server string
	// DryRun returns the composed message as the Body instead of sending it.
	DryRun bool
	// Stdin supplies the body when the URL has no body=; nil means os.Stdin.
	Stdin io.Reader
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string

	// now and messageID make dry runs reproducible in tests.
	now       func() time.Time
	messageID string
	// words name options and settings in messages and plans as the
	// caller does (the declaration's Values).
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
)

// Fetch sends the message (or, with DryRun, returns it); see Handler.
func (h *Handler) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	m, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	tr := req.Trace
	if tr == nil {
		tr = schemes.NopTrace{}
	}
	in := composeInput{from: h.from(), now: h.clock(), id: h.messageID}
	// Check the URL first (header injection, addresses), then the server,
	// and only then read a body from stdin: a bad URL or a missing server
	// should not first wait for the user to type a message.
	if _, err := compose(m, in); err != nil {
		return nil, err
	}
	var srv server
	if !h.DryRun {
		if srv, err = h.server(m); err != nil {
			return nil, err
		}
	}
	if _, ok := m.Header("body"); !ok {
		if f, ok := h.stdin().(*os.File); ok && req.Notify != nil && term.IsTerminal(int(f.Fd())) {
			// Without this a terminal just waits, and the person does
			// not know it is for them.
			req.Notify("type the message, then end it with Ctrl-D at the start of a line")
		}
		body, err := io.ReadAll(h.stdin())
		if err != nil {
			return nil, &schemes.Error{Scheme: "mailto", Phase: "body", Kind: schemes.KindOther,
				Msg: "reading the message body from stdin", Err: err}
		}
		in.body, in.hasBody = body, true
	}
	msg, err := compose(m, in)
	if err != nil {
		return nil, err
	}
	for _, name := range msg.ignored {
		tr.Info(fmt.Sprintf("ignoring header field %q of the URL (not safe to set, RFC 6068 §3)", name))
	}
	if h.DryRun {
		text := bytes.ReplaceAll(msg.text, []byte("\r\n"), []byte("\n"))
		return &schemes.Response{Body: io.NopCloser(bytes.NewReader(text)), Size: int64(len(text)), Type: "message/rfc822"}, nil
	}
	if err := h.send(ctx, req, m, srv, msg, tr); err != nil {
		var se *schemes.Error
		if in.hasBody && errors.As(err, &se) {
			// A retry (fetch.Client, --retry) would find stdin used up
			// and send an empty message.
			se.Retryable = false
		}
		return nil, err
	}
	return &schemes.Response{Body: io.NopCloser(strings.NewReader("")), Size: 0}, nil
}

// Explain returns the plan: the message's envelope and header, then the
// SMTP exchange.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	m, err := schemes.LocatorOf[*URL](req)
	if err != nil {
		return nil, err
	}
	in := composeInput{from: h.from(), now: h.clock(), id: "explain", hasBody: true}
	if v, ok := m.Header("body"); ok {
		in.body = []byte(v)
	}
	msg, err := compose(m, in)
	if err != nil {
		return nil, err
	}
	var plan []string
	head, _, _ := strings.Cut(string(msg.text), "\r\n\r\n")
	for _, l := range strings.Split(head, "\r\n") {
		if !strings.HasPrefix(l, "Date:") && !strings.HasPrefix(l, "Message-ID:") {
			plan = append(plan, "header "+l)
		}
	}
	if _, ok := m.Header("body"); ok {
		plan = append(plan, "body: the URL's body= field")
	} else {
		plan = append(plan, "body: read from stdin")
	}
	for _, name := range msg.ignored {
		plan = append(plan, fmt.Sprintf("ignore header field %q (unsafe, RFC 6068 §3)", name))
	}
	if h.DryRun {
		return append(plan, "dry run: print the message, send nothing"), nil
	}
	srv, err := h.server(m)
	if err != nil {
		return nil, err
	}
	plan = append(plan, "connect "+net.JoinHostPort(srv.host, strconv.Itoa(srv.port))+" (SMTP submission)", "EHLO")
	if req.RequireTLS {
		plan = append(plan, "STARTTLS (required: "+h.words.Setting(schemes.SettingRequireTLS)+")")
	} else {
		plan = append(plan, "STARTTLS if the server offers it")
	}
	if req.Credentials != nil {
		if u, _, ok := req.Credentials("mailto", srv.host, srv.port); ok {
			plan = append(plan, "AUTH PLAIN (or LOGIN) as "+u+" with ****, if offered; only over TLS or to loopback")
		}
	}
	plan = append(plan, "MAIL FROM:<"+msg.from+">")
	for _, r := range msg.recipients {
		plan = append(plan, "RCPT TO:<"+r+">")
	}
	return append(plan, "DATA", "QUIT"), nil
}

func (h *Handler) getenv(k string) string {
	if h.Getenv != nil {
		return h.Getenv(k)
	}
	return os.Getenv(k)
}

func (h *Handler) clock() time.Time {
	if h.now != nil {
		return h.now()
	}
	return time.Now()
}

func (h *Handler) stdin() io.Reader {
	if h.Stdin != nil {
		return h.Stdin
	}
	return os.Stdin
}

// from is the configured sender: From, $URLGET_EMAIL, $EMAIL, user@host.
func (h *Handler) from() string {
	if h.From != "" {
		return h.From
	}
	return schemes.DefaultMailAddress(h.getenv)
}

// server is the submission server to use.
type server struct {
	host string
	port int
}

// server reads Server or $URLGET_SMTP.
func (h *Handler) server(m *URL) (server, error) {
	opt := h.words.Option("smtp-server")
	v, src := h.Server, opt
	if v == "" {
		v, src = h.getenv("URLGET_SMTP"), "URLGET_SMTP"
	}
	if v == "" {
		return server{}, &schemes.Error{Scheme: "mailto", Phase: "config", Kind: schemes.KindUsage,
			Part: "smtp-server", Msg: "no SMTP server to send the message through: use " + opt + " HOST[:PORT] " +
				"or set URLGET_SMTP=HOST[:PORT] (port 587 by default), or " + h.words.Option("dry-run") + " to print the message"}
	}
	s := server{host: v, port: DefaultSubmissionPort}
	if host, port, err := net.SplitHostPort(v); err == nil {
		p, perr := strconv.Atoi(port)
		if perr != nil || p < 1 || p > 65535 {
			return server{}, badServer(m, src, v)
		}
		s = server{host: host, port: p}
	} else if strings.Contains(v, ":") && !strings.HasPrefix(v, "[") && strings.Count(v, ":") < 2 {
		return server{}, badServer(m, src, v)
	}
	s.host = strings.TrimSuffix(strings.TrimPrefix(s.host, "["), "]")
	if s.host == "" || strings.ContainsAny(s.host, " /\r\n\x00") {
		return server{}, badServer(m, src, v)
	}
	return s, nil
}

func badServer(m *URL, src, v string) error {
	return &schemes.Error{Scheme: "mailto", Phase: "config", Kind: schemes.KindUsage, Part: "smtp-server",
		Msg: fmt.Sprintf("%s %q: want HOST[:PORT]", src, v)}
}
