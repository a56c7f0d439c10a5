package sftp

import (
	"slices"

	"github.com/urlget/urlget/schemes"
)

// declared is the scheme this package serves. Port 22 is on the
// transport's restricted list ("ssh"): declaring it as the scheme's own
// port is what lets sftp URLs reach it, and only them.
var declared = []schemes.Name{
	{Name: "sftp", Port: 22},
}

// Declaration declares sftp (port 22), the SSH File Transfer Protocol of
// draft-ietf-secsh-filexfer over SSH, with the handler's options.
func Declaration() schemes.Declaration {
	only := []string{"sftp"}
	return schemes.Declaration{
		Names: slices.Clone(declared),
		Options: []schemes.Option{
			{Name: "known-hosts", Kind: schemes.String, Schemes: only,
				Help: "sftp: check SSH host keys against `FILE` (default ~/.ssh/known_hosts)"},
			{Name: "ssh-accept-new", Kind: schemes.Bool, Schemes: only,
				Help: "sftp: accept and remember the key of a host the known hosts file does not name (OpenSSH's accept-new); a changed key is still refused"},
			{Name: "key", Kind: schemes.String, Schemes: only,
				Help: "sftp: log in with the SSH private key in `FILE` alone (default: the SSH agent's keys at $SSH_AUTH_SOCK, then ~/.ssh/id_rsa, id_ecdsa and id_ed25519)"},
		},
		New: newSchemes,
	}
}

// newSchemes builds the handler from the option values.
func newSchemes(v schemes.Values) ([]schemes.Scheme, error) {
	h := &Handler{KnownHosts: v.String("known-hosts"), AcceptNew: v.Bool("ssh-accept-new"),
		KeyFile: v.String("key"), words: v.Words()}
	return Schemes(h), nil
}

// caps: files are retrieved, directories listed, anything described
// without its bytes (SSH_FXP_STAT), and reads start at any offset (an
// SFTP read names its offset), so partial copies are continued and byte
// ranges asked for exactly. Encrypted: SSH encrypts everything and the
// host key authenticates the server, so a Client that requires TLS
// (--ssl-reqd) lets sftp through, as curl does. No RedirectTarget: a request carries the
// user's keys and agent, which a server's redirect must not lead to
// another host.
const caps = schemes.Retrieves | schemes.Lists | schemes.Stats | schemes.Resumes | schemes.Ranges | schemes.Encrypted

// Schemes returns the sftp scheme served by h; nil h means default
// settings (~/.ssh/known_hosts, keys from the agent and the default
// identity files).
func Schemes(h *Handler) []schemes.Scheme {
	if h == nil {
		h = &Handler{}
	}
	return []schemes.Scheme{{Name: "sftp", Parse: parseLocator, Handler: h, Caps: caps}}
}

// parseLocator adapts Parse to schemes.Scheme.Parse.
func parseLocator(u *schemes.URL) (schemes.Locator, error) {
	l, err := Parse(u)
	if err != nil {
		return nil, err
	}
	return l, nil
}
