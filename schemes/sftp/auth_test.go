package sftp

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestAgentLogin: the agent's key logs in, through the Dialer's local
// socket, and the agent's connection is closed after the login.
func TestAgentLogin(t *testing.T) {
	noHome(t)
	s, priv := newSigner(t)
	closed := serveAgent(t, priv)
	srv := &authServer{accept: s.PublicKey()}
	err, trace := tryLogin(t, &Handler{}, &schemes.Request{Dialer: &transport.Dialer{}}, srv, nil)
	if err != nil {
		t.Fatalf("login with the agent's key: %v\n%s", err, trace)
	}
	if !strings.Contains(trace, "the SSH agent offers 1 key") || !strings.Contains(trace, "Connecting to local socket") {
		t.Errorf("trace lacks the agent:\n%s", trace)
	}
	<-closed // the agent's server returns only when urlget closed its connection
}

// TestAgentMissing: an agent socket that is not there, or a Dialer that
// cannot open one, is no error: the password logs in, and the trace
// says why there was no agent.
func TestAgentMissing(t *testing.T) {
	noHome(t)
	t.Setenv(agentSocket, filepath.Join(t.TempDir(), "gone.sock"))
	pw := "pw"
	for _, d := range []schemes.Dialer{&transport.Dialer{}, tcpOnly{}} {
		err, trace := tryLogin(t, &Handler{}, &schemes.Request{Dialer: d}, &authServer{}, &pw)
		if err != nil {
			t.Fatalf("%T: password login without an agent: %v\n%s", d, err, trace)
		}
		if !strings.Contains(trace, "no SSH agent: ") {
			t.Errorf("%T: trace does not say there is no agent:\n%s", d, trace)
		}
	}
}

// tcpOnly is a Dialer that cannot open local sockets.
type tcpOnly struct{ schemes.Dialer }

// TestAgentUnusable: an agent with keys the server refuses leaves the
// login to the password, and without one it is refused.
func TestAgentUnusable(t *testing.T) {
	noHome(t)
	_, priv := newSigner(t)
	serveAgent(t, priv)
	srv := &authServer{}
	pw := "pw"
	if err, trace := tryLogin(t, &Handler{}, &schemes.Request{Dialer: &transport.Dialer{}}, srv, &pw); err != nil {
		t.Fatalf("password after a refused agent key: %v\n%s", err, trace)
	}
	if srv.offered.Load() == 0 {
		t.Error("the agent's key was not offered")
	}
	err, _ := tryLogin(t, &Handler{}, &schemes.Request{Dialer: &transport.Dialer{}}, srv, nil)
	if !errors.Is(err, errNoPassword) {
		t.Errorf("no usable key, no password: %v, want errNoPassword", err)
	}
}

// TestDefaultIdentity: with no key file and no agent, ~/.ssh/id_ed25519
// logs in; a key the agent holds too is offered once.
func TestDefaultIdentity(t *testing.T) {
	home := noHome(t)
	s, priv := newSigner(t)
	writeIdentity(t, home, "id_ed25519", priv, "")
	srv := &authServer{accept: s.PublicKey()}
	err, trace := tryLogin(t, &Handler{}, &schemes.Request{Dialer: &transport.Dialer{}}, srv, nil)
	if err != nil {
		t.Fatalf("login with ~/.ssh/id_ed25519: %v\n%s", err, trace)
	}
	if !strings.Contains(trace, filepath.Join(home, ".ssh", "id_ed25519")+" (ssh-ed25519)") {
		t.Errorf("trace does not name the identity file:\n%s", trace)
	}

	serveAgent(t, priv)
	srv = &authServer{} // refuses every key: counts what is offered
	pw := "pw"
	if err, trace = tryLogin(t, &Handler{}, &schemes.Request{Dialer: &transport.Dialer{}}, srv, &pw); err != nil {
		t.Fatalf("%v\n%s", err, trace)
	}
	if n := srv.offered.Load(); n != 1 || !strings.Contains(trace, "skipped: the SSH agent offers its key") {
		t.Errorf("a key both in the agent and in a file offered %d times, want once:\n%s", n, trace)
	}
}

// TestDefaultIdentityPassphrase: a default key with a passphrase is
// skipped without a terminal (the password logs in, nothing fails), and
// with one it is asked for only when the server accepts the key.
func TestDefaultIdentityPassphrase(t *testing.T) {
	home := noHome(t)
	s, priv := newSigner(t)
	writeIdentity(t, home, "id_ed25519", priv, "secret phrase")
	pw := "pw"
	err, trace := tryLogin(t, &Handler{}, &schemes.Request{Dialer: &transport.Dialer{}}, &authServer{accept: s.PublicKey()}, &pw)
	if err != nil {
		t.Fatalf("a locked default key without a terminal must not fail the login: %v\n%s", err, trace)
	}
	if !strings.Contains(trace, "skipped: it has a passphrase and there is no terminal") {
		t.Errorf("trace does not say the key was skipped:\n%s", trace)
	}

	var asked []string
	prompt := func(_ context.Context, p string, secret bool) (string, error) {
		asked = append(asked, p)
		return "secret phrase", nil
	}
	// A server that refuses the key: nobody is asked for its passphrase.
	if err, trace = tryLogin(t, &Handler{}, &schemes.Request{Dialer: &transport.Dialer{}, Prompt: prompt}, &authServer{}, &pw); err != nil {
		t.Fatalf("%v\n%s", err, trace)
	}
	if len(asked) != 0 {
		t.Errorf("asked %q for a key the server refused", asked)
	}
	// A server that accepts it: asked once, and the key logs in.
	err, trace = tryLogin(t, &Handler{}, &schemes.Request{Dialer: &transport.Dialer{}, Prompt: prompt}, &authServer{accept: s.PublicKey()}, nil)
	if err != nil || len(asked) != 1 || !strings.Contains(asked[0], "id_ed25519") {
		t.Fatalf("login with the unlocked key: %v, asked %q\n%s", err, asked, trace)
	}
	if strings.Contains(trace, "secret phrase") {
		t.Errorf("the passphrase is in the trace:\n%s", trace)
	}
}

// TestKeyFileAlone: --key offers that key alone, not the agent's nor the
// default files', and an unreadable one is an error.
func TestKeyFileAlone(t *testing.T) {
	home := noHome(t)
	_, other := newSigner(t)
	writeIdentity(t, home, "id_ed25519", other, "")
	serveAgent(t, other)
	s, priv := newSigner(t)
	writeIdentity(t, home, "mine", priv, "")
	srv := &authServer{accept: s.PublicKey()}
	h := &Handler{KeyFile: filepath.Join(home, ".ssh", "mine")}
	if err, trace := tryLogin(t, h, &schemes.Request{Dialer: &transport.Dialer{}}, srv, nil); err != nil {
		t.Fatalf("login with --key: %v\n%s", err, trace)
	}
	if n := srv.offered.Load(); n != 1 {
		t.Errorf("%d keys offered with a key file, want 1", n)
	}
	loc, _ := Parse(mustParse(t, "sftp://bob@host.test/f"))
	h = &Handler{KeyFile: filepath.Join(home, "none")}
	_, _, err := h.authMethods(t.Context(), loc, &schemes.Request{Trace: schemes.NopTrace{}}, login{User: "bob"}, schemes.NopTrace{})
	if schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("a missing key file: %v, want a usage error", err)
	}
}

// TestKeysRefusedWords: a refused login's message says what the keys
// came to.
func TestKeysRefusedWords(t *testing.T) {
	for _, tc := range []struct {
		k    keyLogin
		want string
	}{
		{keyLogin{}, ""},
		{keyLogin{asked: true}, " (no key to offer: no SSH agent key, no default identity file)"},
		{keyLogin{asked: true, offered: 1}, " (it accepted none of the 1 key offered)"},
		{keyLogin{asked: true, offered: 3}, " (it accepted none of the 3 keys offered)"},
	} {
		if got := tc.k.refused(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.k, got, tc.want)
		}
	}
}

// TestNoAmbientCredentials: a request that allows no ambient credentials
// (a gateway's) offers neither the agent's keys nor the default files',
// and its sessions are not those of a login that did.
func TestNoAmbientCredentials(t *testing.T) {
	home := noHome(t)
	s, priv := newSigner(t)
	writeIdentity(t, home, "id_ed25519", priv, "")
	serveAgent(t, priv)
	srv := &authServer{accept: s.PublicKey()}
	pw := "pw"
	req := &schemes.Request{Dialer: &transport.Dialer{}, NoAmbientCredentials: true}
	err, trace := tryLogin(t, &Handler{}, req, srv, &pw)
	if err != nil {
		t.Fatalf("password login: %v\n%s", err, trace)
	}
	if n := srv.offered.Load(); n != 0 || !strings.Contains(trace, "allows no ambient credentials") {
		t.Errorf("%d keys offered to a request without ambient credentials, want 0:\n%s", n, trace)
	}

	loc, _ := Parse(mustParse(t, "sftp://bob@host.test/f"))
	d := &transport.Dialer{} // one Dialer: a key tells Dialers apart too
	keyOf := func(noAmbient bool) schemes.ConnKey {
		rc := &recordConns{}
		(&Handler{}).run(t.Context(), &schemes.Request{URL: loc, Dialer: d,
			NoAmbientCredentials: noAmbient, Conns: rc}, nil)
		if !rc.key.Pooled() {
			t.Fatal("no pooled session key asked for")
		}
		return rc.key
	}
	if keyOf(true) == keyOf(false) {
		t.Error("a session with ambient keys could serve a request that allows none")
	}
	if keyOf(true) != keyOf(true) {
		t.Error("two requests alike have different session keys")
	}
}

// recordConns is a pool that records the key it is asked for and dials
// nothing.
type recordConns struct{ key schemes.ConnKey }

func (r *recordConns) Lease(context.Context, schemes.ConnKey, func(schemes.Session) int) schemes.Session {
	return nil
}

func (r *recordConns) Keep(schemes.ConnKey, schemes.Session) {}

func (r *recordConns) Use(_ context.Context, key schemes.ConnKey, _ func(schemes.Session) int, _ schemes.DialFunc, _ schemes.UseFunc) error {
	r.key = key
	return errors.New("recorded")
}

// TestExplainKeys: the plan names the keys a login offers: the key
// file alone, else the agent's and the default files', and none when
// the request allows no ambient credentials.
func TestExplainKeys(t *testing.T) {
	loc, _ := Parse(mustParse(t, "sftp://bob@host.test/f"))
	for _, tc := range []struct {
		h         *Handler
		noAmbient bool
		want      string
	}{
		{&Handler{KeyFile: "/k"}, false, "login as bob: publickey /k, then password"},
		{&Handler{}, false, "login as bob: publickey: the SSH agent's keys ($SSH_AUTH_SOCK), then ~/.ssh/id_rsa, ~/.ssh/id_ecdsa, ~/.ssh/id_ed25519 (those that exist), then password"},
		{&Handler{}, true, "login as bob: password"},
	} {
		plan, err := tc.h.Explain(&schemes.Request{URL: loc, NoAmbientCredentials: tc.noAmbient})
		if err != nil {
			t.Fatal(err)
		}
		if text := strings.Join(plan, "\n"); !strings.Contains(text, tc.want) {
			t.Errorf("plan lacks %q:\n%s", tc.want, text)
		}
	}
}
