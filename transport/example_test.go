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
// dialer (and so the same TLS settings, which are the dialer's), scheme,
// server, port and login.
func ExamplePool() {
	pool := &transport.Pool{MaxIdlePerKey: 4}
	defer pool.CloseIdle()
	verifying := &transport.Dialer{}
	insecure := &transport.Dialer{TLS: &tls.Config{InsecureSkipVerify: true}}
	a := &fetch.Client{Dialer: verifying, Conns: pool}
	b := &fetch.Client{Dialer: insecure, Conns: pool}
	_, _ = a, b

	key := func(d schemes.Dialer, user string) schemes.ConnKey {
		k, _ := schemes.NewConnKey(&schemes.Request{Dialer: d}, "ftps", "ftp.example", 990, true, user, "secret")
		return k
	}
	fmt.Println("same settings:", key(verifying, "alice") == key(verifying, "alice"))
	fmt.Println("-k and verifying:", key(insecure, "alice") == key(verifying, "alice"))
	fmt.Println("alice and bob:", key(verifying, "alice") == key(verifying, "bob"))
	// Output:
	// same settings: true
	// -k and verifying: false
	// alice and bob: false
}
