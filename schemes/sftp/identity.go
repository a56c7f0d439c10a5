package sftp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/crypto/ssh"

	"github.com/urlget/urlget/schemes"
)

// identityFiles are the private keys in ~/.ssh that OpenSSH tries when no
// identity is named (ssh(1) -i), in its order, less the ones this client
// cannot use: security keys (id_ecdsa_sk, id_ed25519_sk) need their
// hardware, and DSA keys are gone from OpenSSH and x/crypto alike.
var identityFiles = []string{"id_rsa", "id_ecdsa", "id_ed25519"}

// keyLogin is the public key part of a login: the keys it offered, and
// the agent's connection, which signs during the login and is closed
// after it.
type keyLogin struct {
	asked   bool // the server asked for public keys
	offered int
	conn    io.Closer
}

// close closes the agent's connection, if one was opened.
func (k *keyLogin) close() {
	if k.conn != nil {
		k.conn.Close()
	}
}

// refused says, for a refused login's message, what the public keys
// came to: "" when the server asked for none.
func (k *keyLogin) refused() string {
	switch {
	case !k.asked:
		return ""
	case k.offered == 0:
		return " (no key to offer: no SSH agent key, no default identity file)"
	}
	return " (it accepted none of the " + plural(k.offered, "key") + " offered)"
}

// defaultKeys is the public key login of a request without a key file:
// the SSH agent's keys, then the default identity files, gathered when
// the server first asks for a public key (a server that wants none opens
// no agent and reads no file).
func defaultKeys(ctx context.Context, scheme string, req *schemes.Request, tr schemes.Trace) (*keyLogin, func() ([]ssh.Signer, error)) {
	k := &keyLogin{}
	var signers []ssh.Signer
	get := func() ([]ssh.Signer, error) {
		// The ssh package asks once per login, in the goroutine that
		// logs in; asked only guards against a second call.
		if !k.asked {
			k.asked = true
			signers, k.conn = agentSigners(ctx, scheme, req, tr)
			signers = append(signers, identitySigners(ctx, req, tr, signers)...)
			k.offered = len(signers)
		}
		return signers, nil
	}
	return k, get
}

// identitySigners reads the default identity files that exist, skipping
// the keys the agent already offers (have). A file that cannot be used —
// unreadable, not a key, a passphrase and no terminal to ask for it — is
// skipped with a trace line: a key nobody named never fails a login. A
// key with a passphrase is asked for it only when the server accepts its
// public key (lockedKey), as OpenSSH does.
func identitySigners(ctx context.Context, req *schemes.Request, tr schemes.Trace, have []ssh.Signer) []ssh.Signer {
	home, err := os.UserHomeDir()
	if err != nil {
		tr.Info("no default identity files: no home directory")
		return nil
	}
	var out []ssh.Signer
	for _, name := range identityFiles {
		path := filepath.Join(home, ".ssh", name)
		pem, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			tr.Info("identity file " + path + " skipped: " + err.Error())
			continue
		}
		var s ssh.Signer
		s, err = ssh.ParsePrivateKey(pem)
		var missing *ssh.PassphraseMissingError
		if errors.As(err, &missing) {
			s, err = locked(ctx, req, tr, path, pem, missing.PublicKey)
		}
		switch {
		case err != nil:
			tr.Info("identity file " + path + " skipped: " + err.Error())
		case offered(have, s.PublicKey()) || offered(out, s.PublicKey()):
			tr.Info("identity file " + path + " skipped: the SSH agent offers its key")
		default:
			tr.Info("identity file " + path + " (" + s.PublicKey().Type() + ")")
			out = append(out, s)
		}
	}
	return out
}

// offered says whether one of signers has the public key pub.
func offered(signers []ssh.Signer, pub ssh.PublicKey) bool {
	for _, s := range signers {
		if bytes.Equal(s.PublicKey().Marshal(), pub.Marshal()) {
			return true
		}
	}
	return false
}

// locked is the signer of a default key with a passphrase, which asks
// for it at the terminal when it must sign: its public key comes from the
// file itself (OpenSSH's format keeps it in clear) or from FILE.pub.
// Without a terminal there is nobody to ask, and the key is not offered.
func locked(ctx context.Context, req *schemes.Request, tr schemes.Trace, path string, pem []byte, pub ssh.PublicKey) (ssh.Signer, error) {
	if req.Prompt == nil {
		return nil, errors.New("it has a passphrase and there is no terminal to ask for it")
	}
	if pub == nil {
		b, err := os.ReadFile(path + ".pub")
		if err != nil {
			return nil, errors.New("it has a passphrase, and its public key is not at hand to offer")
		}
		if pub, _, _, _, err = ssh.ParseAuthorizedKey(b); err != nil {
			return nil, fmt.Errorf("it has a passphrase, and %s.pub: %w", path, err)
		}
	}
	ask := func() (ssh.Signer, error) {
		pp, err := req.Prompt(ctx, "passphrase for "+path+": ", true)
		if err == nil {
			req.Trace.Secret(pp)
			var s ssh.Signer
			if s, err = ssh.ParsePrivateKeyWithPassphrase(pem, []byte(pp)); err == nil {
				return s, nil
			}
		}
		// The ssh package ends the public key login here, and would
		// report only that no method remained.
		tr.Info("identity file " + path + " not unlocked: " + err.Error())
		return nil, err
	}
	return &lockedKey{pub: pub, unlock: ask}, nil
}

// lockedKey is a key whose private half is asked for (unlocked) only when
// the server has accepted its public half and a signature is due.
type lockedKey struct {
	pub    ssh.PublicKey
	unlock func() (ssh.Signer, error)
	s      ssh.Signer
}

var _ ssh.AlgorithmSigner = (*lockedKey)(nil)

// PublicKey is the key's public half, known without the passphrase.
func (k *lockedKey) PublicKey() ssh.PublicKey { return k.pub }

// Sign signs with the key's default algorithm.
func (k *lockedKey) Sign(rand io.Reader, data []byte) (*ssh.Signature, error) {
	return k.SignWithAlgorithm(rand, data, "")
}

// SignWithAlgorithm unlocks the key the first time, then signs.
func (k *lockedKey) SignWithAlgorithm(rand io.Reader, data []byte, algorithm string) (*ssh.Signature, error) {
	if k.s == nil {
		s, err := k.unlock()
		if err != nil {
			return nil, err
		}
		k.s = s
	}
	if as, ok := k.s.(ssh.AlgorithmSigner); ok {
		return as.SignWithAlgorithm(rand, data, algorithm)
	}
	return k.s.Sign(rand, data)
}
