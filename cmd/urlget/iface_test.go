package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestInterfaceFlag: --interface makes the connections from the address
// named, or from an interface's (the loopback interface's: 127.0.0.1); a
// name that is neither is a usage error naming the flag.
func TestInterfaceFlag(t *testing.T) {
	lo := loopbackName(t)
	var from []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		from = append(from, host)
	}))
	defer srv.Close()
	for _, tc := range []struct{ iface, want string }{{"127.0.0.9", "127.0.0.9"}, {lo, "127.0.0.1"}} {
		from = nil
		if _, stderr, code := urlget(t, "", "--interface", tc.iface, "-s", "-o", "/dev/null", srv.URL+"/"); code != 0 {
			t.Fatalf("--interface %s: exit %d: %s", tc.iface, code, stderr)
		}
		if len(from) != 1 || from[0] != tc.want {
			t.Errorf("--interface %s: the server saw %v, want %s", tc.iface, from, tc.want)
		}
	}
	_, stderr, code := urlget(t, "", "--interface", "no-such-interface", srv.URL+"/")
	if code != 2 || !strings.Contains(stderr, "--interface no-such-interface: neither an IP address nor a network interface") {
		t.Errorf("an unknown interface: exit %d, %q", code, stderr)
	}
}

// loopbackName is the name of this machine's loopback interface (lo,
// lo0).
func loopbackName(t *testing.T) string {
	t.Helper()
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback != 0 {
			return i.Name
		}
	}
	t.Fatal("no loopback interface")
	return ""
}
