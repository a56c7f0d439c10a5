//go:build !linux

package transport

import "net"

// LowWater is nil outside Linux, where a lowered mark may not wake a
// sleeping reader.
func LowWater(net.Conn) func(n int) { return nil }
