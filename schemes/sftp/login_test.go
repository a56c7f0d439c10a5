package sftp

import (
	"bytes"
	"crypto/ed25519"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
	"github.com/urlget/urlget/transport/sshagenttest"
)

// newSigner makes an ed25519 key, returning its signer and private key.
func newSigner(t *testing.T) (ssh.Signer, ed25519.PrivateKey) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s, priv
}

// writeIdentity writes priv as ~/.ssh/name under home, with passphrase
// pass unless it is "".
func writeIdentity(t *testing.T, home, name string, priv ed25519.PrivateKey, pass string) {
	t.Helper()
	var block *pem.Block
	var err error
	if pass == "" {
		block, err = ssh.MarshalPrivateKey(priv, "")
	} else {
		block, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "", []byte(pass))
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, ".ssh")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
}

// serveAgent serves an in-process agent holding keys
// (sshagenttest.Serve), named by SSH_AUTH_SOCK for the test. The channel
// it returns receives each time a client has closed its connection.
func serveAgent(t *testing.T, keys ...ed25519.PrivateKey) <-chan struct{} {
	t.Helper()
	held := make([]any, len(keys))
	for i, k := range keys {
		held[i] = k
	}
	a := sshagenttest.Serve(t, held...)
	t.Setenv(agentSocket, a.Path)
	return a.Closed
}

// authServer is an SSH server that accepts the public key accept (if
// not nil) and the password "pw", and counts what it was offered.
type authServer struct {
	accept  ssh.PublicKey
	offered atomic.Int32
}

// config is the server's configuration.
func (a *authServer) config(t *testing.T) *ssh.ServerConfig {
	hostKey, _ := newSigner(t)
	cfg := &ssh.ServerConfig{
		PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			a.offered.Add(1)
			if a.accept != nil && bytes.Equal(k.Marshal(), a.accept.Marshal()) {
				return nil, nil
			}
			return nil, errors.New("not this key")
		},
		PasswordCallback: func(_ ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if string(pw) == "pw" {
				return nil, nil
			}
			return nil, errors.New("wrong password")
		},
	}
	cfg.AddHostKey(hostKey)
	return cfg
}

// tryLogin logs in to srv over a loopback connection with the methods the
// handler builds for req, as bob (with password pw when not nil), and
// returns the login's error and the trace.
func tryLogin(t *testing.T, h *Handler, req *schemes.Request, srv *authServer, pw *string) (error, string) {
	t.Helper()
	var trace strings.Builder
	tr := transport.NewTrace(&trace)
	req.Trace = tr
	loc, err := Parse(mustParse(t, "sftp://bob@host.test/f"))
	if err != nil {
		t.Fatal(err)
	}
	// A socket pair, not net.Pipe: both ends of SSH write their version
	// first, which an unbuffered pipe deadlocks on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan struct{})
	go func() {
		defer close(served)
		sc, err := ln.Accept()
		if err != nil {
			return
		}
		defer sc.Close()
		conn, chans, reqs, err := ssh.NewServerConn(sc, srv.config(t))
		if err != nil {
			return
		}
		go ssh.DiscardRequests(reqs)
		go func() {
			for ch := range chans {
				ch.Reject(ssh.Prohibited, "no channels")
			}
		}()
		conn.Wait()
	}()
	cc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	methods, keys, err := h.authMethods(t.Context(), loc, req, login{User: "bob", Password: pw}, tr)
	if err != nil {
		t.Fatal(err)
	}
	c, chans, reqs, err := ssh.NewClientConn(cc, "host.test:22", &ssh.ClientConfig{User: "bob", Auth: methods,
		HostKeyCallback: ssh.InsecureIgnoreHostKey()})
	keys.close()
	if err == nil {
		go ssh.DiscardRequests(reqs)
		go func() {
			for range chans {
			}
		}()
		c.Close()
	} else {
		cc.Close()
	}
	<-served
	return err, trace.String()
}

func mustParse(t *testing.T, raw string) *schemes.URL {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// noHome gives the test an empty home directory and no agent.
func noHome(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(agentSocket, "")
	return home
}
