package transport

import (
	"net"
	"testing"
	"time"
)

// deadlineConn records the read deadlines set on it; its reads return at
// once.
type deadlineConn struct {
	net.Conn
	set []time.Time
}

func (d *deadlineConn) Read(p []byte) (int, error) { return len(p), nil }

func (d *deadlineConn) SetReadDeadline(t time.Time) error {
	d.set = append(d.set, t)
	return nil
}

func (d *deadlineConn) SetDeadline(t time.Time) error { return d.SetReadDeadline(t) }

// TestArmSetsDeadlineSeldom: reads in quick succession leave the idle
// deadline set by the first (a runtime timer reset each read is what it
// saves), and a deadline of the caller's is never left behind by one arm
// set earlier: the socket always holds the earlier of the two, to within
// idle/16 of the idle one.
func TestArmSetsDeadlineSeldom(t *testing.T) {
	d := &deadlineConn{}
	c := Wrap(nil, d, time.Hour)
	buf := make([]byte, 8)
	for range 1000 {
		if _, err := c.Read(buf); err != nil {
			t.Fatal(err)
		}
	}
	if len(d.set) != 1 {
		t.Fatalf("1,000 quick reads set %d deadlines, want 1", len(d.set))
	}
	if left := time.Until(d.set[0]); left < time.Hour*15/16 || left > time.Hour {
		t.Fatalf("the idle deadline is %v away", left)
	}
	// The caller's deadline, earlier than the idle one, is what the socket
	// holds after the next read too.
	soon := time.Now().Add(time.Minute)
	c.SetReadDeadline(soon)
	c.Read(buf)
	c.Read(buf)
	if last := d.set[len(d.set)-1]; !last.Equal(soon) || len(d.set) != 3 {
		t.Fatalf("after the caller's deadline: %v (%d set), want %v", last, len(d.set), soon)
	}
	// Cleared, the idle deadline comes back at the next read.
	c.SetReadDeadline(time.Time{})
	c.Read(buf)
	if last := d.set[len(d.set)-1]; time.Until(last) < time.Hour*15/16 {
		t.Fatalf("after clearing the caller's deadline the socket holds %v", last)
	}
}
