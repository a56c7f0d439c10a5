package schemes

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"time"
)

// Kind classifies a failure. Each kind maps to one exit status of the urlget
// command, so scripts can tell "not there" from "not allowed" from "could
// not reach".
type Kind int

// The kinds of failure, in the order of the urlget command's exit statuses.
const (
	KindOther       Kind = iota // anything else (exit 1)
	KindUsage                   // bad flags or a malformed URL (exit 2)
	KindNotFound                // no such file, selector, article or document (exit 3)
	KindPermission              // login or permission refused (exit 4)
	KindConnect                 // could not connect, DNS failure (exit 5)
	KindTimeout                 // a deadline passed (exit 5)
	KindProtocol                // a reply the client cannot use (exit 6)
	KindSafety                  // refused by a safety rule (exit 7)
	KindUnsupported             // scheme or feature not supported (exit 8)
	KindCanceled                // the caller canceled the context (exit 1)
	KindBusy                    // the server is busy or rate-limits: FTP 421, HTTP 503/429, NNTP 400 (exit 5)
	// KindLocal is a local file that cannot be written or created: no
	// such directory, no permission, a read-only or full file system
	// (exit 23, curl's "write error"). It is never the server's doing,
	// so a script can tell it from a missing remote file (exit 3) or a
	// login refused (exit 4).
	KindLocal
)

var kindNames = [...]string{
	KindOther: "other", KindUsage: "usage", KindNotFound: "not_found",
	KindPermission: "permission", KindConnect: "connect", KindTimeout: "timeout",
	KindProtocol: "protocol", KindSafety: "safety", KindUnsupported: "unsupported",
	KindCanceled: "canceled", KindBusy: "busy", KindLocal: "local",
}

// String returns the kind's name as it appears in --json output.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "other"
	}
	return kindNames[k]
}

// ExitCode is the urlget command's exit status for a failure of this kind.
func (k Kind) ExitCode() int {
	switch k {
	case KindUsage:
		return 2
	case KindNotFound:
		return 3
	case KindPermission:
		return 4
	case KindConnect, KindTimeout, KindBusy:
		return 5
	case KindProtocol:
		return 6
	case KindSafety:
		return 7
	case KindUnsupported:
		return 8
	case KindLocal:
		return 23
	}
	return 1
}

// Error is the one error type of urlget. Every layer returns it (or wraps
// it), so callers can read the scheme, the phase of the access algorithm, the
// kind, the server's reply code and the URL part at fault without parsing
// text. URL is always redacted: it never holds a password.
//
// Who fills what: handlers and the transport return protocol errors —
// scheme, phase, kind, code, part, message — and leave URL empty; the
// fetch.Client names the URL of the request that failed (after redirects),
// once, redacted, on every path (Get, List, Stat, Download, the bodies and
// listings it returns). Only a parse error (SyntaxError) names its URL
// itself, as there is no request yet.
//
// Cancellation and deadlines get one answer for every scheme
// (ContextKind): the caller's cancel is KindCanceled, its deadline
// passing KindTimeout, neither retryable; a timeout of the connection's
// own while the caller's context goes on (no progress for the idle
// timeout, the connect timeout) is KindTimeout, retryable. An expired
// deadline is therefore not retried on the handler's say: fetch decides
// per attempt, and retries an attempt that its own MaxTime (curl's -m,
// which bounds each try) cut short, never one whose caller's context is
// done.
type Error struct {
	Scheme    string // "ftp", "http", ...; empty before the scheme is known
	Phase     string // step of the access algorithm: "parse", "dial", "login", "cwd", "retr", ...
	Kind      Kind
	Code      int    // the server's reply code (FTP 550, HTTP 404, NNTP 430), 0 if none
	URL       string // redacted URL, or the raw text given when it did not parse; filled by fetch
	Part      string // the URL part at fault ("port", "typecode", "selector"), if one is
	Msg       string // what went wrong, for a person
	Retryable bool   // a retry might succeed (broken data connection, 421, an idle or connect timeout)
	// RetryAfter is how long the server asked the client to wait before
	// trying again (HTTP Retry-After), 0 if it did not say.
	RetryAfter time.Duration
	// Form is the form of a URL retrieved without the answers it needs
	// (KindUsage, Phase "ask"), nil for every other failure: a caller
	// with a form of its own shows its questions and retrieves its
	// Answerer's WithAnswers. A URL whose server asks for search words
	// (a gemini 1x: KindUsage, Part "query") has the one question too,
	// answered by its Searcher's WithSearch; a QuestionPassword there
	// is a secret that a caller must not put in a URL it shows. A
	// pointer, so that Errors compare.
	Form *Form
	// Asks says the server answered with a request of its own instead
	// of the resource: input a person types (a gemini 1x, its question
	// on Form), or a client certificate to show (a gemini 6x). It is
	// no failure of the resource: a crawl, which types nothing and shows
	// no identity, passes such a URL by (a mirror skips it), as it never
	// follows an entry's Form.
	Asks bool
	// Setting names the caller's setting that decided this failure, or
	// that would allow what it refused, as the library spells it
	// ("mirror.MaxDelete": a package and its option), "" for none. Msg
	// does not name it: a command shows its own flag for it, so that the
	// library speaks no command's language.
	Setting string
	Err     error // underlying cause, if any
}

// Error formats as "URL: message[: cause]", e.g.
// `ftp://h/x;type=q: bad typecode "q" (want a, i or d)`.
func (e *Error) Error() string {
	var b strings.Builder
	if e.URL != "" {
		b.WriteString(e.URL)
		b.WriteString(": ")
	}
	msg, cause := e.Msg, e.Err
	if IsBareContextError(cause) {
		if msg == "" {
			msg = "timed out"
			if errors.Is(cause, context.Canceled) {
				msg = "canceled"
			}
		}
		cause = nil // Go's words, which msg says for people
	}
	if cause != nil && cause.Error() == "" {
		cause = nil // a Reason that adds nothing to msg
	}
	if msg == "" && cause != nil {
		msg = cause.Error()
	} else if cause != nil {
		msg += ": " + cause.Error()
	}
	if msg == "" {
		msg = e.Kind.String()
	}
	b.WriteString(msg)
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Reason returns an error that reads as text and unwraps to err: the
// cause of an *Error whose message already names what err's text would
// repeat in Go's words (a path, a host, a socket's addresses), so that a
// person reads the system's reason alone — "no space left on device",
// "no such host" — while errors.Is and errors.As still find err.
func Reason(text string, err error) error { return &reason{text: text, err: err} }

type reason struct {
	text string
	err  error
}

func (r *reason) Error() string { return r.text }
func (r *reason) Unwrap() error { return r.err }

// IsBareContextError reports whether err's text is no more than that of
// context.Canceled or context.DeadlineExceeded ("context canceled",
// "context deadline exceeded"): Go's words, which tell a person nothing
// the error's kind (canceled, timed out) does not, so a message leaves
// them out. An error that wraps one with words of its own is not bare.
func IsBareContextError(err error) bool {
	if err == nil {
		return false
	}
	text := err.Error()
	return text == context.Canceled.Error() && errors.Is(err, context.Canceled) ||
		text == context.DeadlineExceeded.Error() && errors.Is(err, context.DeadlineExceeded)
}

// Is lets errors.Is match the standard sentinels a kind corresponds to:
// fs.ErrNotExist, fs.ErrPermission, os.ErrDeadlineExceeded and
// context.Canceled.
func (e *Error) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e.Kind == KindNotFound
	case fs.ErrPermission:
		return e.Kind == KindPermission
	case os.ErrDeadlineExceeded, context.DeadlineExceeded:
		return e.Kind == KindTimeout
	case context.Canceled:
		return e.Kind == KindCanceled
	}
	return false
}

// KindOf returns the kind of err: the Kind of the first *Error in its chain,
// or the kind ContextKind gives a cancellation or timeout; KindOther
// otherwise.
func KindOf(err error) Kind {
	var e *Error
	switch {
	case err == nil:
		return KindOther
	case errors.As(err, &e):
		return e.Kind
	}
	kind, _, _ := ContextKind(nil, err)
	return kind
}

// IsRetryable reports whether err is marked retryable.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable
}

// SyntaxError returns a KindUsage error for u, a URL whose scheme-specific
// syntax is malformed, naming the part at fault; the URL is stored
// redacted.
func (u *URL) SyntaxError(part, msg string) *Error {
	return &Error{Scheme: u.Scheme, Phase: "parse", Kind: KindUsage, URL: u.Redacted(), Part: part, Msg: msg}
}

// SyntaxError returns a KindUsage error for a malformed URL, naming the part
// at fault. raw is redacted before it is stored.
func SyntaxError(scheme, raw, part, msg string) *Error {
	return &Error{Scheme: scheme, Phase: "parse", Kind: KindUsage, URL: RedactString(raw), Part: part, Msg: msg}
}

// ErrBodyWritten is the cause (Error.Err) of a failure whose reply body
// was delivered anyway, as the caller asked (HTTP's error page under
// curl's --fail-with-body): the caller has the bytes and reports the
// failure, which is not retried.
var ErrBodyWritten = errors.New("the error page was written")

// ErrErrorStatus is in the chain of the failure a server's error status
// makes (HTTP's 400 and up): the server answered, and said no, with a
// page a Request with ErrorPages would have had as the resource. A
// caller tells it from a failure to get an answer, as curl's -f gives
// it an exit status of its own (22); its Kind still says what the
// status means (404 not found, 403 permission, 503 busy). The error's
// text does not show it.
var ErrErrorStatus = errors.New("the server answered with an error status")
