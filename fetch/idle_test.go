package fetch

import (
	"testing"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestMaxIdleConnsPerHost: the field sizes the Client's own pool, whose
// limits the http handler reads from every request (schemes.IdleLimiter);
// the total never bounds below it; a caller's Conns is left as it is.
func TestMaxIdleConnsPerHost(t *testing.T) {
	def := transport.DefaultMaxIdle
	for _, tc := range []struct {
		set         int
		perKey, all int
	}{
		{0, transport.DefaultMaxIdlePerKey, def},
		{50, 50, def},
		{def + 72, def + 72, def + 72},
	} {
		c := &Client{MaxIdleConnsPerHost: tc.set}
		l, ok := c.conns().(schemes.IdleLimiter)
		if !ok {
			t.Fatalf("the Client's own pool, a %T, states no idle limits", c.conns())
		}
		if got := l.IdleLimits(); got.PerKey != tc.perKey || got.Total != tc.all || got.Timeout != transport.DefaultIdleTimeout {
			t.Errorf("MaxIdleConnsPerHost %d: limits %+v, want %d per host and %d in all", tc.set, got, tc.perKey, tc.all)
		}
	}
	own := &transport.Pool{MaxIdlePerKey: 3}
	c := &Client{Conns: own, MaxIdleConnsPerHost: 50}
	if c.conns() != schemes.Conns(own) || own.IdleLimits().PerKey != 3 {
		t.Errorf("the caller's Conns was replaced or resized: %+v", own.IdleLimits())
	}
}
