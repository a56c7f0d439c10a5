package fetch

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// testDeclaration declares a scheme of this test only, on a restricted
// port (119): what it may use comes from here and nowhere else.
func testDeclaration() schemes.Declaration {
	return schemes.Declaration{
		Names: []schemes.Name{{Name: "x-test", Port: 119}},
		New: func(schemes.Values) ([]schemes.Scheme, error) {
			return []schemes.Scheme{{Name: "x-test",
				Parse: func(u *schemes.URL) (schemes.Locator, error) { return schemestest.Loc{U: u}, nil }}}, nil
		},
	}
}

// TestDialerPortsFromRegistry: a Client dials with its Registry's port
// facts, so that a scheme's declaration alone opens the restricted port
// it owns, in the default Dialer and in a caller's that has none; the
// caller's Dialer is not changed, and clones dial with the same copy
// (pooled sessions are keyed by the Dialer).
func TestDialerPortsFromRegistry(t *testing.T) {
	r, err := NewRegistry(Config{Schemes: []schemes.Declaration{testDeclaration()}})
	if err != nil {
		t.Fatal(err)
	}
	own := &transport.Dialer{}
	for _, c := range []*Client{{Registry: r}, {Registry: r, Dialer: own}} {
		td, ok := c.dialer().(*transport.Dialer)
		if !ok {
			t.Fatalf("dialer %T, want a *transport.Dialer", c.dialer())
		}
		if err := td.CheckPort("x-test", 119); err != nil {
			t.Errorf("the declared port refused: %v", err)
		}
		if err := td.CheckPort("x-other", 119); err == nil {
			t.Error("a scheme that declares no port 119 may use it")
		}
		if c.dialer() != td || c.Clone().dialer() != td {
			t.Error("a second request or a clone dials with another copy")
		}
	}
	if own.Ports != nil {
		t.Error("the Client changed its caller's Dialer")
	}
}

// TestDialerOwnPorts: a Dialer with port facts of its own keeps them,
// and a Client without a Registry dials with the default Dialer as it is.
func TestDialerOwnPorts(t *testing.T) {
	r, err := NewRegistry(Config{Schemes: []schemes.Declaration{testDeclaration()}})
	if err != nil {
		t.Fatal(err)
	}
	own := &transport.Dialer{Ports: r}
	if d := (&Client{Registry: DefaultRegistry(), Dialer: own}).dialer(); d != schemes.Dialer(own) {
		t.Errorf("dialer %p, want the caller's %p", d, own)
	}
	if d := (&Client{}).dialer(); d != schemes.Dialer(defaultDialer) {
		t.Error("a Client without a Registry does not use the default Dialer")
	}
	if err := defaultDialer.CheckPort("x-test", 119); err == nil {
		t.Error("the default Dialer knows a scheme the default registry lacks")
	}
}
