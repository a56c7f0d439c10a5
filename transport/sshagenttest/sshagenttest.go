// Package sshagenttest serves in-test unix sockets: an SSH agent holding
// keys (a golang.org/x/crypto/ssh/agent keyring), for the tests that log
// in with one (schemes/sftp's, integration's), and any other server a
// test needs on a local socket (transport's DialLocal tests).
//
// It is imported by tests only, and lives under transport/ because it
// listens: transport is the one package that opens sockets
// (TestNoSocketsOutsideTransport), which also refuses it to any file that
// is not a test.
package sshagenttest

import (
	"net"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh/agent"
)

// UnixServer listens on a unix socket in a temporary directory of t and
// gives each connection to handle, on a goroutine of its own, closing it
// when handle returns; it returns the socket's path. When the test ends,
// it stops listening, closes the connections still open and waits for
// every handle to return.
func UnixServer(t testing.TB, handle func(net.Conn)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		open = map[net.Conn]bool{}
	)
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			open[c] = true
			mu.Unlock()
			wg.Go(func() {
				defer func() {
					mu.Lock()
					delete(open, c)
					mu.Unlock()
					c.Close()
				}()
				handle(c)
			})
		}
	})
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return path
}

// Agent is an SSH agent served on a unix socket for the rest of a test.
type Agent struct {
	// Path is the agent's socket: what SSH_AUTH_SOCK names.
	Path string
	// Closed receives each time a client has closed its connection to the
	// agent (the agent's server returns only then).
	Closed <-chan struct{}
}

// Serve serves an agent holding keys (private keys as
// agent.AddedKey.PrivateKey takes them: ed25519.PrivateKey, *rsa.PrivateKey,
// what ssh.ParseRawPrivateKey returns) until the test ends.
func Serve(t testing.TB, keys ...any) *Agent {
	t.Helper()
	ring := agent.NewKeyring()
	for _, k := range keys {
		if err := ring.Add(agent.AddedKey{PrivateKey: k}); err != nil {
			t.Fatal(err)
		}
	}
	closed := make(chan struct{}, 16)
	ended := make(chan struct{})
	path := UnixServer(t, func(c net.Conn) {
		agent.ServeAgent(ring, c) // returns when the client closes
		select {
		case closed <- struct{}{}:
		case <-ended: // nobody reads any more: the test is over
		}
	})
	// Registered after UnixServer's, so run before it (t.Cleanup is last
	// in, first out): the handlers it waits for are not left blocked on
	// closed.
	t.Cleanup(func() { close(ended) })
	return &Agent{Path: path, Closed: closed}
}
