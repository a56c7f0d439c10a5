package nntp

import (
	"errors"

	"github.com/urlget/urlget/schemes"
)

// replyError turns a reply the client cannot go on with into an error:
//
//   - 411 no such group, 420 no current article, 423 no such article
//     number, 430 no such message-id: KindNotFound (exit 3);
//   - 480 authentication required, 481 authentication failed, 482
//     out of sequence, 502 access denied (also as a greeting: the server
//     will not serve this client): KindPermission (exit 4), a 480
//     saying which settings give a login, in the caller's words;
//   - 400 service temporarily unavailable: the server is busy
//     (schemes.BusyError: KindBusy, exit 5, retryable);
//   - anything else: KindProtocol (exit 6) with the reply text.
func (p *plan) replyError(phase string, r reply) *schemes.Error {
	msg := "server replied " + clip(r.String())
	if r.Code == 400 {
		return schemes.BusyError(p.scheme, phase, r.Code, msg)
	}
	e := &schemes.Error{Scheme: p.scheme, Phase: phase, Code: r.Code, Msg: msg}
	switch r.Code {
	case 411, 420, 423, 430:
		e.Kind = schemes.KindNotFound
	case 480:
		e.Kind = schemes.KindPermission
		e.Msg += " (give a user and password with " + p.words.Setting(schemes.SettingCredentials) + ", netrc, or in the URL)"
	case 481, 482, 502:
		e.Kind = schemes.KindPermission
	default:
		e.Kind = schemes.KindProtocol
		e.Msg = "unexpected reply: " + clip(r.String())
	}
	return e
}

// ioError classifies an error from the connection (schemes.IOError; a
// reply the client refuses is KindProtocol).
func ioError(scheme, phase string, err error) error {
	var bad badReply
	if errors.As(err, &bad) {
		return &schemes.Error{Scheme: scheme, Phase: phase, Kind: schemes.KindProtocol, Msg: err.Error()}
	}
	return schemes.IOError(scheme, phase, err)
}
