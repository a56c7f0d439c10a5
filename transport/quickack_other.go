//go:build !linux

package transport

import "net"

// QuickAcker is a no-op outside Linux: TCP_QUICKACK is Linux-only.
func QuickAcker(net.Conn) func() { return nil }
