package dirsrv

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHostileSwitches: each hostile switch's packet byte for byte, no
// answer to a duplicate of such a request, and the count query.
func TestHostileSwitches(t *testing.T) {
	s, c := start(t)
	port := func(p int) []byte { return []byte{byte(p >> 8), byte(p)} }
	for i, tc := range []struct {
		sw   string
		want []byte
	}{
		{"redirectloop", append([]byte{0x13, 0x58, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 127, 0, 0, 1}, port(s.Port)...)},
		{"redirectmcast", append([]byte{0x13, 0x58, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 224, 0, 0, 1}, port(s.Port)...)},
		{"waitlong", []byte{0x0b, 0x58, 3, 0, 0, 0, 0, 0, 0, 0xff, 0xff}},
		{"badpacket", []byte{0x09, 0x58, 4}},
		{"trickle", []byte{0x07, 0x58, 5, 0, 1, 0, 0}},
	} {
		req := packet1(byte(i+1), "GET-OBJECT-INFO CONTENTS ASCII /switch/"+tc.sw+"/t"+strconv.Itoa(i)+"/x 0\n")
		c.Write(req)
		if p := read(t, c); !bytes.HasPrefix(p, tc.want) || tc.sw != "trickle" && len(p) != len(tc.want) {
			t.Errorf("%s: % x, want % x", tc.sw, p, tc.want)
		}
		c.Write(req) // a duplicate: nothing (trickle's next packet is 2 s away)
		c.Write([]byte{0x09, 0x58, byte(i + 1), 0, 0, 0, 0, 0, 1})
		c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		if n, err := c.Read(make([]byte, 2048)); err == nil {
			t.Errorf("%s: a packet of %d bytes after a duplicate", tc.sw, n)
		}
	}
	c.Write(packet1(9, "GET-OBJECT-INFO CONTENTS ASCII /switch/count/t0/x 0\n"))
	if p := read(t, c); !strings.HasSuffix(string(p), "CONTENTS SEQUENCE DATA 3\n") {
		t.Errorf("count: %q, want 3 (the request, its duplicate, the ACK)", p)
	}
	c.Write(packet1(10, "GET-OBJECT-INFO ACCESS-METHOD ASCII /switch/count/t0/x 0\n"))
	if p := read(t, c); !strings.Contains(string(p), "ACCESS-METHOD SEQUENCE PROSPERO-CONTENTS") {
		t.Errorf("count's access method: %q", p)
	}
}
