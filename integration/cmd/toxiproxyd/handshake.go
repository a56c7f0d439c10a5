package main

import (
	"time"

	"github.com/Shopify/toxiproxy/v2/toxics"
)

// handshakeToxic imitates the TCP handshake of a link with a round trip,
// which toxiproxy does not: it accepts a client on loopback and dials the
// server at once, so a connection costs no round trip before its first
// bytes. The toxic holds the first bytes of its direction until Delay
// after the connection was accepted, then lets everything through; put
// before a latency toxic, it restarts that toxic's clock (the chunk's
// timestamp) at the release. With a round trip R and latency R/2 each
// way, Delay R upstream and 3R/2 downstream make a client's first request
// reach the server at 3R/2 and a server's greeting reach the client at
// 2R, as over a real link (SYN, SYN-ACK, ACK, then the data).
// integration/wan adds it when the server knows it (type "handshake").
type handshakeToxic struct {
	// Delay is in milliseconds after the connection was accepted.
	Delay int64 `json:"delay"`
}

// handshakeState is one connection's, in one direction.
type handshakeState struct {
	accepted time.Time
	open     bool // the first bytes went through: the rest passes at once
}

// NewState is called when a connection starts (toxics.StatefulToxic).
func (t *handshakeToxic) NewState() any { return &handshakeState{accepted: time.Now()} }

// Pipe holds the first chunk until the handshake is over, then passes
// every chunk on in order.
func (t *handshakeToxic) Pipe(stub *toxics.ToxicStub) {
	st := stub.State.(*handshakeState)
	for {
		select {
		case <-stub.Interrupt:
			return
		case c := <-stub.Input:
			if c == nil {
				stub.Close()
				return
			}
			if !st.open {
				if wait := time.Until(st.accepted.Add(time.Duration(t.Delay) * time.Millisecond)); wait > 0 {
					select {
					case <-time.After(wait):
					case <-stub.Interrupt:
						stub.Output <- c // drop no bytes
						return
					}
				}
				st.open = true
				c.Timestamp = time.Now()
			}
			stub.Output <- c
		}
	}
}

func init() { toxics.Register("handshake", new(handshakeToxic)) }
