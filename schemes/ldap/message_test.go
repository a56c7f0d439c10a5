package ldap

import (
	"bufio"
	"bytes"
	"testing"
)

// FuzzMessages: whatever bytes a server sends, reading messages and
// decoding them as entries, results and controls never panics, and never
// yields a message longer than the bound.
func FuzzMessages(f *testing.F) {
	f.Add(entryMsg(1, "cn=a,dc=x", "cn", "a", "b"))
	f.Add(reply(1, 5, ldapResult(10, "", "ldap://h/"), pagingControls("c")))
	f.Add([]byte{0x30, 0x84, 0x40, 0, 0, 0})
	f.Add([]byte{0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		rd := msgReader{r: bufio.NewReader(bytes.NewReader(b)), max: 1 << 10}
		for {
			m, err := rd.next()
			if err != nil {
				return
			}
			if len(m.body) > rd.max {
				t.Fatalf("a body of %d bytes", len(m.body))
			}
			var e entry
			e.decode(m.body)
			parseResult(m.body)
			pagingCookie(m.controls)
		}
	})
}
