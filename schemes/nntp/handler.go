package nntp

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// DefaultMax is the number of newest articles a group overview shows when
// Handler.Max is 0.
const DefaultMax = 100

// DefaultMaxArticle bounds an article (and a listing) when
// Handler.MaxBytes is 0.
const DefaultMaxArticle = 64 << 20

// Part selects what of an article is retrieved.
type Part int

// The parts of an article: ARTICLE, HEAD or BODY.
const (
	PartArticle Part = iota // headers, blank line, body
	PartHead                // headers only
	PartBody                // body only
)

// Handler retrieves news, nntp and nntps URLs over NNTP (RFC 3977):
//
//   - news:<message-id> and nntp://host/group/n: the article (ARTICLE,
//     or HEAD/BODY with Part), dot-unstuffed, CRLF turned into LF;
//   - news:<group> and nntp://host/group: the group overview of the
//     newest Max articles (OVER, else XOVER, else HEAD per article), as a
//     Listing of one entry an article (see the package documentation);
//   - news:* and nntp://host/: all groups (LIST ACTIVE, else LIST), as
//     a Listing of one entry a group with its counts and posting status.
//
// A listing holds its connection until its end, when the connection goes
// back to the pool, or until it is closed, which closes the connection.
// Each new connection traces into a scope of the request's Trace of its
// own; a pooled connection keeps its scope.
//
// news: names no server: it comes from Server, else from the NNTPSERVER
// environment variable. Credentials from the URL (nntp://user:pass@host/)
// are sent right after connecting; credentials from Request.Credentials
// (netrc, --user) only when the server answers 480.
//
// The Handler keeps idle connections for reuse, per server and user; its
// fields must not change after first use. It is safe for concurrent use.
type Handler struct {
	// Server is the news server for news: URLs, "host" or "host:port"
	// ("[v6]:port"); empty means the NNTPSERVER environment variable.
	Server string
	// Max is how many of the newest articles a group overview lists
	// (0: DefaultMax).
	Max int
	// Part selects the part of an article retrieved (default all).
	Part Part
	// MaxBytes bounds an article or a listing's reply, in bytes (0:
	// DefaultMaxArticle); a longer one fails with KindProtocol.
	MaxBytes int64
	// Getenv reads the environment (nil: os.Getenv); tests replace it.
	Getenv func(string) string
	// Window is how many article commands may be outstanding on one
	// connection when the caller says which articles it will ask for
	// next (schemes.NextOf; see pipeline.go): 0 means DefaultWindow, 1
	// sends each command after the reply before it (no pipelining), and
	// the scheme then does not claim schemes.Pipelines.
	Window int

	parking transport.Parking[parkKey, parkedSession] // connections with pipelined replies waiting
	// words name options and settings in messages and plans as the
	// caller does (the declaration's Values).
	words schemes.Words
}

var (
	_ schemes.Handler   = (*Handler)(nil)
	_ schemes.Explainer = (*Handler)(nil)
	_ schemes.Lister    = (*Handler)(nil)
)

// controlChars are refused in a message-id or group sent in a command:
// CR, LF and NUL would inject a command, space would add an argument, and
// other controls have no business there (RFC 3977 §3.6 message-ids are
// printable US-ASCII).
var controlChars = func() string {
	var b strings.Builder
	for c := 0; c < 0x20; c++ {
		b.WriteByte(byte(c))
	}
	b.WriteString(" \x7f")
	return b.String()
}()

// op is what a URL asks for.
type op int

const (
	opArticle  op = iota // one article by message-id or number
	opOverview           // a group's overview
	opList               // all groups
)

// plan is a request resolved: the server, the credentials and the command
// to carry out. It is computed without I/O, for Fetch and Explain alike.
type plan struct {
	scheme string // for the dialer, errors and trace: news, nntp or nntps
	host   string
	port   int
	tls    bool
	// starttls: the request requires TLS (--ssl-reqd) on a connection
	// that starts in clear (news, nntp), upgraded with STARTTLS (RFC
	// 4642) before anything else is sent; KindSafety when the server
	// cannot.
	starttls bool
	user     string
	pass     string
	eager    bool // credentials from the URL: authenticate before asking
	haveCred bool
	creds    schemes.Credentials
	// words name options and settings in errors and the plan as the
	// caller does (the Handler's).
	words schemes.Words

	gen *schemes.URL // the request URL's generic parts (its credentials, for entry Locators)

	op        op
	group     string
	article   *int64
	messageID string // without "<" ">"

	// next are the URLs the caller will ask for next (at most a
	// window's), whose article commands may be sent ahead on this
	// request's connection; req is the request they are resolved
	// against.
	next []schemes.Locator
	req  *schemes.Request
}

// resolve builds the plan for req.
func (h *Handler) resolve(req *schemes.Request) (*plan, error) {
	p := &plan{words: h.words}
	var g *schemes.URL
	switch loc := req.URL.(type) {
	case *NewsURL:
		g = loc.Generic()
		p.scheme = "news"
		switch {
		case loc.All:
			p.op = opList
		case loc.Group != nil:
			p.op, p.group = opOverview, *loc.Group
		default:
			p.op, p.messageID = opArticle, *loc.MessageID
		}
		if g.Authority { // RFC 5538 news://host:port/...
			p.host, p.port = g.Host, g.EffectivePort()
		} else if err := h.newsServer(p); err != nil {
			return nil, err
		}
	case *URL:
		g = loc.Generic()
		p.scheme = g.Scheme
		p.host, p.port, p.tls = g.Host, g.EffectivePort(), g.Scheme == "nntps"
		p.group, p.article = loc.Group, loc.Article
		switch {
		case loc.Group == "":
			p.op = opList // nntp://host/: the server's groups, as news://host/*
		case loc.Article != nil:
			p.op = opArticle
		default:
			p.op = opOverview
		}
	default:
		return nil, &schemes.Error{Scheme: "nntp", Phase: "request", Kind: schemes.KindOther,
			Msg: fmt.Sprintf("nntp handler given a %T, want *nntp.URL or *nntp.NewsURL", req.URL)}
	}
	p.gen = g
	if err := h.check(p); err != nil {
		return nil, err
	}
	if g.Authority && g.User != nil {
		p.user, p.eager, p.haveCred = *g.User, true, true
		if g.Password != nil {
			p.pass = *g.Password
		}
	}
	p.creds = req.Credentials
	p.starttls = req.RequireTLS && !p.tls
	return p, nil
}

// newsServer fills in the server of a news: URL from Server or NNTPSERVER.
func (h *Handler) newsServer(p *plan) error {
	opt := h.words.Option("nntp-server")
	s, from := h.Server, opt
	if s == "" {
		getenv := h.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		s, from = strings.TrimSpace(getenv("NNTPSERVER")), "NNTPSERVER"
	}
	if s == "" {
		return &schemes.Error{Scheme: "news", Phase: "request", Kind: schemes.KindUsage, Part: "host",
			Msg: "news: URLs name no server: give one with " + opt + " host[:port] or the NNTPSERVER environment variable, or in the URL (news://host[:port]/group)"}
	}
	host, port, err := splitServer(s)
	if err != nil {
		return &schemes.Error{Scheme: "news", Phase: "request", Kind: schemes.KindUsage, Part: "host",
			Msg: fmt.Sprintf("%s %q: %v (want host or host:port)", from, s, err)}
	}
	p.host, p.port = host, port
	return nil
}

// splitServer reads "host", "host:port", "[v6]" or "[v6]:port"; the port
// defaults to 119.
func splitServer(s string) (string, int, error) {
	host, portText, err := net.SplitHostPort(s)
	if err != nil {
		// No port: a bare host, or a bracketed or bare IPv6 address.
		h := strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
		if h == "" || strings.ContainsAny(h, "[]/ \t") || (strings.Contains(h, ":") && net.ParseIP(h) == nil) {
			return "", 0, fmt.Errorf("bad host")
		}
		return strings.ToLower(h), 119, nil
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 1 || port > 65535 || host == "" || strings.ContainsAny(host, "/ \t") {
		return "", 0, fmt.Errorf("bad host or port")
	}
	return strings.ToLower(host), port, nil
}

// check refuses message-ids and groups that would break the command line
// (exit 7), before anything is dialed.
func (h *Handler) check(p *plan) error {
	var err error
	switch {
	case p.messageID != "":
		err = transport.CheckChars(p.scheme, "message_id", p.messageID, controlChars)
	case p.group != "":
		err = transport.CheckChars(p.scheme, "group", p.group, controlChars)
	}
	return err
}

func (h *Handler) max() int {
	if h.Max > 0 {
		return h.Max
	}
	return DefaultMax
}

func (h *Handler) maxBytes() int64 {
	if h.MaxBytes > 0 {
		return h.MaxBytes
	}
	return DefaultMaxArticle
}

// partCommand is the command word for the article part wanted.
func (h *Handler) partCommand() (string, int) {
	switch h.Part {
	case PartHead:
		return "HEAD", codeHead
	case PartBody:
		return "BODY", codeBody
	}
	return "ARTICLE", codeArticle
}

// articleArg is the argument of ARTICLE/HEAD/BODY.
func (p *plan) articleArg() string {
	if p.article != nil {
		return strconv.FormatInt(*p.article, 10)
	}
	return "<" + p.messageID + ">"
}

// Explain returns the command plan, without I/O.
func (h *Handler) Explain(req *schemes.Request) ([]string, error) {
	p, err := h.resolve(req)
	if err != nil {
		return nil, err
	}
	conn := "connect " + net.JoinHostPort(p.host, strconv.Itoa(p.port))
	if p.tls {
		conn += " (TLS)"
	}
	lines := []string{conn, "read greeting (200 or 201)", "CAPABILITIES"}
	if p.starttls {
		lines = append(lines, "STARTTLS (required: "+p.words.Setting(schemes.SettingRequireTLS)+"), then CAPABILITIES again")
	}
	lines = append(lines, "MODE READER (only if the server announces MODE-READER, or no capabilities)")
	if p.eager {
		lines = append(lines, "AUTHINFO USER "+p.user, "AUTHINFO PASS "+schemes.Redacted)
	} else {
		lines = append(lines, "(on 480: AUTHINFO USER/PASS with "+p.words.Setting(schemes.SettingCredentials)+" or netrc credentials, then the command again)")
	}
	switch p.op {
	case opArticle:
		word, _ := h.partCommand()
		if p.article != nil {
			lines = append(lines, "GROUP "+p.group)
		}
		lines = append(lines, word+" "+p.articleArg())
		if h.window() > 1 {
			lines = append(lines, fmt.Sprintf("(with the articles the caller asks for next: their %s commands sent ahead, up to %d outstanding, RFC 3977 §3.5)", word, h.window()))
		}
	case opOverview:
		lines = append(lines, "GROUP "+p.group,
			fmt.Sprintf("OVER low-high over the newest %d articles (if OVER fails: XOVER, then HEAD per article)", h.max()))
	case opList:
		lines = append(lines, "LIST ACTIVE (if it fails: LIST)")
	}
	return append(lines, "QUIT (or keep the connection for the next URL)"), nil
}
