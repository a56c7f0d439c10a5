package waisd

import "testing"

// TestFlood: a search of the flood database asking for 40 hits gets
// FloodHits of them, in a reply past the 100,000-byte buffer but within
// the 1 MiB a client accepts; their records count them.
func TestFlood(t *testing.T) {
	_, addr := start(t)
	r := exchange(t, addr, search(FloodDatabase, "apple"))[0]
	if r == nil || len(r)-25 <= DefaultBuffer || len(r)-25 > 1<<20 {
		t.Fatalf("a reply of %d bytes", len(r))
	}
	body := r[25:]
	fl := int(body[0])<<8 | int(body[1])
	if body[2] != 23 || numberOf(body[2+5:2+8]) != FloodHits {
		t.Errorf("fixed part %x", body[:2+fl])
	}
	c := &cursor{buf: body[2+fl:]}
	wrap, err := c.next()
	if err != nil || wrap.tag != 99 || c.more() {
		t.Fatalf("extension %v", err)
	}
	n := 0
	for g := (&cursor{buf: wrap.val}); g.more(); n++ {
		if f, err := g.next(); err != nil || f.tag != 150 {
			t.Fatalf("group %d: tag %d, %v", n, f.tag, err)
		}
	}
	if n != FloodHits {
		t.Errorf("%d hits, want %d", n, FloodHits)
	}
}
