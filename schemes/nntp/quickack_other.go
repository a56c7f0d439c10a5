//go:build !linux

package nntp

import "net"

// quickAcker is a no-op outside Linux: TCP_QUICKACK is Linux-only.
func quickAcker(net.Conn) func() { return nil }
