package ldap

import (
	"bufio"
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkDecodeSearch reads a recorded search reply of 1000 entries
// (each a DN and an attribute of three values) and a SearchResultDone,
// and decodes every entry in place, as a search does: it is the path
// bench/ldap.sh times against ldapsearch, without the network.
func BenchmarkDecodeSearch(b *testing.B) {
	var stream []byte
	for i := range 1000 {
		stream = append(stream, entryMsg(2, fmt.Sprintf("cn=user%04d,ou=people,dc=example,dc=org", i), "mail", "a@example.org", "b@example.org", "c@example.org")...)
	}
	stream = append(stream, reply(2, 5, ldapResult(0, ""), nil)...)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	r := bytes.NewReader(stream)
	br := bufio.NewReaderSize(r, readBuffer)
	rd := msgReader{r: br, max: maxMessage}
	var e entry
	for b.Loop() {
		r.Reset(stream)
		br.Reset(r)
		for {
			m, err := rd.next()
			if err != nil {
				b.Fatal(err)
			}
			if m.op == opSearchDone {
				break
			}
			if err := e.decode(m.body); err != nil {
				b.Fatal(err)
			}
		}
	}
}
