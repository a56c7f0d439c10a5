package sftp

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/urlget/urlget/schemes"
)

// acceptMu serializes appends to known hosts files, so that parallel
// transfers to a new host accept its key once.
var acceptMu sync.Mutex

// hostKeys checks a server's host key against the known hosts file, as
// OpenSSH's StrictHostKeyChecking=yes does, or accept-new when
// acceptNew: a key the file names for the host passes, a different key
// for a host it names is refused (KindSafety: it may be an impostor), and
// an unknown host is refused with its key's fingerprint and the way to
// accept it, or accepted and appended to the file. refused holds the
// refusal, since the ssh package wraps the callback's error in its own.
type hostKeys struct {
	file      string
	acceptNew bool
	scheme    string
	words     schemes.Words
	trace     schemes.Trace
	refused   error
}

// knownHostsFile is the file of host keys: the option's, else
// ~/.ssh/known_hosts.
func (h *Handler) knownHostsFile() (string, error) {
	if h.KnownHosts != "" {
		return h.KnownHosts, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".ssh", "known_hosts"), nil
}

// callback reads the file (a missing one names no host) and returns the
// check, and the key algorithms of the keys it knows for address, which
// the client asks the server for first, so that a server with several
// keys shows the known one (as OpenSSH orders HostKeyAlgorithms).
func (k *hostKeys) callback(address string) (ssh.HostKeyCallback, []string, error) {
	db, err := knownhosts.New(k.file)
	if errors.Is(err, fs.ErrNotExist) {
		db = func(string, net.Addr, ssh.PublicKey) error { return &knownhosts.KeyError{} }
	} else if err != nil {
		return nil, nil, &schemes.Error{Scheme: k.scheme, Phase: "host key", Kind: schemes.KindUsage, Part: "host key",
			Msg: "cannot read the known hosts file " + k.file, Err: err}
	}
	var algos []string
	probe := ed25519.PublicKey(make([]byte, ed25519.PublicKeySize))
	if pk, err := ssh.NewPublicKey(probe); err == nil {
		var ke *knownhosts.KeyError
		if errors.As(db(address, fakeAddr(address), pk), &ke) {
			for _, w := range ke.Want {
				if a := w.Key.Type(); !slices.Contains(algos, a) {
					algos = append(algos, algosOf(a)...)
				}
			}
		}
	}
	check := func(hostname string, remote net.Addr, key ssh.PublicKey) error {
		err := db(address, remote, key)
		var ke *knownhosts.KeyError
		var re *knownhosts.RevokedError
		switch {
		case err == nil:
			k.trace.Info("host key " + ssh.FingerprintSHA256(key) + " matches " + k.file)
			return nil
		case errors.As(err, &re):
			k.refused = k.safety(fmt.Sprintf("the %s host key %s of %s is revoked in %s",
				key.Type(), ssh.FingerprintSHA256(key), address, k.file))
		case errors.As(err, &ke) && len(ke.Want) > 0:
			w := ke.Want[0]
			k.refused = k.safety(fmt.Sprintf("the host key of %s has CHANGED: the server shows %s %s, but %s:%d "+
				"knows %s %s; someone may be impersonating the server. If the server's key was replaced, remove "+
				"line %d of %s and connect again", address, key.Type(), ssh.FingerprintSHA256(key), w.Filename,
				w.Line, w.Key.Type(), ssh.FingerprintSHA256(w.Key), w.Line, w.Filename))
		case errors.As(err, &ke):
			if k.acceptNew {
				if aerr := k.accept(address, key); aerr != nil {
					k.refused = aerr
					return aerr
				}
				k.trace.Info(fmt.Sprintf("accepted the new %s host key %s of %s into %s", key.Type(),
					ssh.FingerprintSHA256(key), address, k.file))
				return nil
			}
			k.refused = k.safety(fmt.Sprintf("the %s host key of %s is unknown: its fingerprint is %s. "+
				"If that is the server's, accept it with %s (it is then added to %s), or add it there yourself",
				key.Type(), address, ssh.FingerprintSHA256(key), k.words.Option("ssh-accept-new"), k.file))
		default:
			k.refused = k.safety("checking the host key: " + err.Error())
		}
		return k.refused
	}
	return check, algos, nil
}

// algosOf are the host key algorithms that show a key of type t: an RSA
// key is signed with SHA-2 by today's servers.
func algosOf(t string) []string {
	if t == ssh.KeyAlgoRSA {
		return []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA}
	}
	return []string{t}
}

// safety is a refusal of the host key.
func (k *hostKeys) safety(msg string) error {
	return &schemes.Error{Scheme: k.scheme, Phase: "host key", Kind: schemes.KindSafety, Part: "host key", Msg: msg}
}

// accept appends address's key to the file (creating it and its
// directory, private to the user, as ssh does), once: a parallel
// transfer may have accepted it meanwhile.
func (k *hostKeys) accept(address string, key ssh.PublicKey) error {
	acceptMu.Lock()
	defer acceptMu.Unlock()
	if db, err := knownhosts.New(k.file); err == nil {
		if db(address, fakeAddr(address), key) == nil {
			return nil
		}
	}
	fail := func(err error) error {
		return &schemes.Error{Scheme: k.scheme, Phase: "host key", Kind: schemes.KindOther, Part: "host key",
			Msg: "cannot remember the host key in " + k.file, Err: err}
	}
	if err := os.MkdirAll(filepath.Dir(k.file), 0o700); err != nil {
		return fail(err)
	}
	f, err := os.OpenFile(k.file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fail(err)
	}
	_, err = f.WriteString(knownhosts.Line([]string{knownhosts.Normalize(address)}, key) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// fakeAddr is address as a net.Addr, for checks made before a
// connection exists: knownhosts reads only its text, and prefers the
// address it is given anyway. Nothing is resolved.
type fakeAddr string

func (a fakeAddr) Network() string { return "tcp" }
func (a fakeAddr) String() string  { return string(a) }
