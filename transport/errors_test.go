package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
)

// TestDNSErrorInWords: a name that does not resolve reads
// `cannot resolve host "h.example": no such host`, not Go's
// "dial tcp: lookup h.example on 10.0.0.53:53: no such host"; the
// *net.DNSError stays in the chain.
func TestDNSErrorInWords(t *testing.T) {
	dns := &net.DNSError{Err: "no such host", Name: "h.example", Server: "10.0.0.53:53", IsNotFound: true}
	err := dialError(context.Background(), "http", "h.example:80", "", &net.OpError{Op: "dial", Net: "tcp", Err: dns})
	if got, want := err.Error(), `cannot resolve host "h.example": no such host`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	var de *net.DNSError
	if !errors.As(err, &de) || de != dns {
		t.Errorf("the *net.DNSError left the chain of %v", err)
	}
}

// TestConnectErrorInWords: a refused connection reads
// "cannot connect to 127.0.0.1:PORT: connection refused", not Go's
// "dial tcp 127.0.0.1:PORT: connect: connection refused".
func TestConnectErrorInWords(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	ln.Close() // nothing listens there now
	_, err = (&Dialer{}).Dial(t.Context(), "http", "127.0.0.1", addr.Port)
	want := fmt.Sprintf("cannot connect to 127.0.0.1:%d: connection refused", addr.Port)
	if err == nil || err.Error() != want || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("%v, want %q wrapping ECONNREFUSED", err, want)
	}
}
