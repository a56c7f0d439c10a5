package transport_test

import (
	"crypto/tls"
	"fmt"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// Two fetch Clients share one pool of idle connections. A session is
// leased only under a key equal to the one it was kept under: the same
// dialer, TLS settings, scheme, server, port and login.
func ExamplePool() {
	pool := &transport.Pool{MaxIdlePerKey: 4}
	defer pool.CloseIdle()
	d := &transport.Dialer{}
	a := &fetch.Client{Dialer: d, Conns: pool}
	b := &fetch.Client{Dialer: d, Conns: pool, TLS: &tls.Config{InsecureSkipVerify: true}}
	_, _ = a, b

	key := func(cfg *tls.Config, user string) schemes.ConnKey {
		k, _ := schemes.NewConnKey(&schemes.Request{Dialer: d, TLS: cfg}, "ftps", "ftp.example", 990, true, user, "secret")
		return k
	}
	fmt.Println("same settings:", key(nil, "alice") == key(nil, "alice"))
	fmt.Println("-k and verifying:", key(b.TLS, "alice") == key(nil, "alice"))
	fmt.Println("alice and bob:", key(nil, "alice") == key(nil, "bob"))
	// Output:
	// same settings: true
	// -k and verifying: false
	// alice and bob: false
}
