package ldap

import (
	"net"
	"sync/atomic"
	"time"

	"github.com/urlget/urlget/transport"
)

// batchConn is a session's connection read in batches while a search
// streams: a reader that keeps up with the server sleeps between its
// writes, and each write that wakes it costs the server, beside it on a
// shared machine, the wake-up and a preemption. While want is set (the
// search expects at least that many more bytes), a Read that finds the
// socket empty sleeps until want bytes are queued (the low-water mark,
// transport.LowWater); if they do not come within batchWait, the mark is
// dropped and the Read takes what is there.
type batchConn struct {
	net.Conn
	set   func(int)     // SO_RCVLOWAT; nil where there is none
	want  int           // the mark the next Read sleeps for, 0 for none
	mark  atomic.Int32  // the mark set on the socket
	wait  time.Duration // batchWait
	timer *time.Timer
}

// batchWait bounds a Read's wait for a batch: the end of a page shorter
// than expected is read after it.
//
// Against slapd on the test bed, 10,000 entries in pages of 500
// (bench/ldap.sh): 1,500–3,400 context switches a search without it, 500
// with a mark of 8 KiB; a wait of 300 µs, 500 µs or 1 ms gave 41–44 ms a
// search (the mark dropped 8–14 times in each), 2 ms 54 ms.
const batchWait = 500 * time.Microsecond

func newBatchConn(c net.Conn) *batchConn {
	b := &batchConn{Conn: c, set: transport.LowWater(c), wait: batchWait}
	b.mark.Store(1)
	return b
}

func (b *batchConn) Read(p []byte) (int, error) {
	if b.set == nil {
		return b.Conn.Read(p)
	}
	want := int32(max(b.want, 1))
	if b.mark.Load() != want {
		b.set(int(want))
		b.mark.Store(want)
	}
	if want > 1 {
		if b.timer == nil {
			b.timer = time.AfterFunc(b.wait, b.drop)
		} else {
			b.timer.Reset(b.wait)
		}
	}
	n, err := b.Conn.Read(p)
	if want > 1 {
		b.timer.Stop()
	}
	return n, err
}

// drop lowers the mark to one byte, waking a Read that waits for more.
func (b *batchConn) drop() {
	b.set(1)
	b.mark.Store(1)
}

// NetConn is the connection underneath.
func (b *batchConn) NetConn() net.Conn { return b.Conn }

// rest drops the mark for good: the session goes back to its pool, where
// nothing may wait for a batch.
func (b *batchConn) rest() {
	b.want = 0
	if b.set != nil && b.mark.Load() != 1 {
		b.drop()
	}
}
