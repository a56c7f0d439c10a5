package transport

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/await"
)

type parkedThing struct{ closed atomic.Int32 }

func (p *parkedThing) Close() error { p.closed.Add(1); return nil }

// TestParking: a value parked is claimed once, by its key, and not
// closed; one parked under a taken key closes the one before; one nobody
// claims is closed after its timeout, once; CloseAll closes the rest.
func TestParking(t *testing.T) {
	var lot Parking[string, *parkedThing]
	a, b, c, d := &parkedThing{}, &parkedThing{}, &parkedThing{}, &parkedThing{}
	lot.Park("x", a, time.Hour)
	if _, ok := lot.Claim("y"); ok {
		t.Error("claimed under a key nothing was parked under")
	}
	if got, ok := lot.Claim("x"); !ok || got != a || a.closed.Load() != 0 {
		t.Errorf("claim x: %v %v, closed %d", got, ok, a.closed.Load())
	}
	if _, ok := lot.Claim("x"); ok {
		t.Error("claimed twice")
	}
	lot.Park("x", a, time.Hour)
	lot.Park("x", b, time.Hour)
	if a.closed.Load() != 1 || b.closed.Load() != 0 || lot.Len() != 1 {
		t.Errorf("parked over: a closed %d, b closed %d, %d parked", a.closed.Load(), b.closed.Load(), lot.Len())
	}
	lot.Park("z", c, time.Millisecond)
	await.Until(t, "the unclaimed value closed", func() bool { return c.closed.Load() == 1 })
	if _, ok := lot.Claim("z"); ok || lot.Len() != 1 {
		t.Errorf("claimed after its timeout closed it (%d parked)", lot.Len())
	}
	lot.Park("w", d, time.Hour)
	lot.CloseAll()
	if b.closed.Load() != 1 || d.closed.Load() != 1 || c.closed.Load() != 1 || lot.Len() != 0 {
		t.Errorf("CloseAll: b %d, d %d, c %d, %d parked", b.closed.Load(), d.closed.Load(), c.closed.Load(), lot.Len())
	}
}
