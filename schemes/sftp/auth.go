package sftp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"

	"golang.org/x/crypto/ssh"

	"github.com/urlget/urlget/schemes"
)

// login is who to log in as and with what password, when one is known.
type login struct {
	User     string
	Password *string
	// From says where the password came from, for a refusal's message.
	From string
}

// password is the login's password, "" when none is known.
func (lg login) password() string {
	if lg.Password == nil {
		return ""
	}
	return *lg.Password
}

// credentials decides the login for loc: the URL's user and password
// (decoded), else the caller's Credentials for the host (-u, netrc, as
// the fetch Client's policy allows), else the local user name, as ssh
// does. A password nobody gave is asked for only if the server wants one.
func (h *Handler) credentials(loc *URL, req *schemes.Request) login {
	g := loc.u
	if g.User != nil {
		return login{User: *g.User, Password: g.Password, From: "the URL"}
	}
	if req.Credentials != nil {
		if u, p, ok := req.Credentials(g.Scheme, g.Host, g.EffectivePort()); ok && u != "" {
			lg := login{User: u, From: h.words.Setting(schemes.SettingCredentials)}
			if p != "" {
				lg.Password = &p
			}
			return lg
		}
	}
	name := os.Getenv("USER")
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	return login{User: name}
}

// authMethods are the ways to log in, in the order OpenSSH tries them:
// public keys (the key file alone, else the SSH agent's keys and the
// default identity files), then the password (known, else asked for at
// the terminal), also through keyboard-interactive, which servers use
// for passwords under PAM. All keys are one method: the ssh package tries
// each method once, so a second public key method would never be asked.
// The keyLogin returned is closed after the login.
func (h *Handler) authMethods(ctx context.Context, loc *URL, req *schemes.Request, lg login, tr schemes.Trace) ([]ssh.AuthMethod, *keyLogin, error) {
	var methods []ssh.AuthMethod
	keys := &keyLogin{}
	if h.KeyFile != "" {
		signer, err := h.signer(ctx, loc, req)
		if err != nil {
			return nil, keys, err
		}
		methods = append(methods, ssh.PublicKeys(signer))
	} else if req.NoAmbientCredentials {
		tr.Info("no SSH agent or default identity file: the caller allows no ambient credentials")
	} else {
		var get func() ([]ssh.Signer, error)
		keys, get = defaultKeys(ctx, loc.u.Scheme, req, tr)
		methods = append(methods, ssh.PublicKeysCallback(get))
	}
	pass := func() (string, error) {
		if lg.Password != nil {
			return *lg.Password, nil
		}
		if req.Prompt == nil {
			return "", errNoPassword
		}
		p, err := req.Prompt(ctx, fmt.Sprintf("%s@%s's password: ", lg.User, loc.u.Host), true)
		if err != nil {
			return "", fmt.Errorf("%w: %w", errNoPassword, err)
		}
		req.Trace.Secret(p)
		lg.Password = &p
		return p, nil
	}
	methods = append(methods, ssh.PasswordCallback(pass),
		ssh.KeyboardInteractive(func(_, _ string, questions []string, echos []bool) ([]string, error) {
			answers := make([]string, len(questions))
			for i := range questions {
				if echos[i] {
					return nil, errors.New("the server asks more than a password")
				}
				p, err := pass()
				if err != nil {
					return nil, err
				}
				answers[i] = p
			}
			return answers, nil
		}))
	return methods, keys, nil
}

// errNoPassword is the failure of a login that needs a password nobody
// gave, with no terminal to ask for one.
var errNoPassword = errors.New("no password given and none could be asked for")

// signer reads the key file, asking for its passphrase when it has one.
func (h *Handler) signer(ctx context.Context, loc *URL, req *schemes.Request) (ssh.Signer, error) {
	fail := func(msg string, err error) error {
		return &schemes.Error{Scheme: loc.u.Scheme, Phase: "auth", Kind: schemes.KindUsage, Part: "auth",
			Msg: msg, Err: err}
	}
	pem, err := os.ReadFile(h.KeyFile)
	if err != nil {
		return nil, fail("cannot read the key file "+h.KeyFile, err)
	}
	s, err := ssh.ParsePrivateKey(pem)
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		if req.Prompt == nil {
			return nil, fail("the key file "+h.KeyFile+" has a passphrase and there is no terminal to ask for it", err)
		}
		pp, perr := req.Prompt(ctx, "passphrase for "+h.KeyFile+": ", true)
		if perr != nil {
			return nil, fail("no passphrase for the key file "+h.KeyFile, perr)
		}
		req.Trace.Secret(pp)
		s, err = ssh.ParsePrivateKeyWithPassphrase(pem, []byte(pp))
	}
	if err != nil {
		return nil, fail("cannot use the key file "+h.KeyFile, err)
	}
	return s, nil
}
