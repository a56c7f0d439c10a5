package waisd

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
)

func start(t *testing.T) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Corpus: "/var/lib/waisdb/corpus", Index: "/var/lib/waisdb/index/demo", Name: "vm:2210"}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return s, ln.Addr().String()
}

func hexBytes(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exchange sends messages on one connection and returns each reply (nil:
// the connection closed).
func exchange(t *testing.T, addr string, msgs ...[]byte) [][]byte {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	var out [][]byte
	for _, m := range msgs {
		c.Write(m)
		hdr := make([]byte, 25)
		if _, err := io.ReadFull(br, hdr); err != nil {
			return append(out, nil)
		}
		n, _ := strconv.Atoi(string(hdr[:10]))
		body := make([]byte, n)
		if _, err := io.ReadFull(br, body); err != nil {
			return append(out, nil)
		}
		out = append(out, append(hdr, body...))
	}
	return out
}

// The search request of wais-notes §9, byte for byte.
func captureSearch(t *testing.T) []byte {
	return append([]byte("0000000039z2wais        0"), hexBytes(t, `00 16 16 00 00 1e 00 13 88 00 00 1e 01 11 00 12 04 64 65 6d 6f 14 01 33
		63 0d 6a 05 61 70 70 6c 65 6f 01 01 72 01 28`)...)
}

// retrieval builds the §9 retrieval request for a DocID and range.
func retrieval(db string, id []byte, start, end string) []byte {
	var q bytes.Buffer
	term := func(a string, v []byte, op bool) {
		putString(&q, 44, []byte(a))
		putString(&q, 45, v)
		if op {
			putString(&q, 46, []byte("a"))
		}
	}
	term("un re ig ig ig ig", id, false)
	term("wt re ig ig ig ig", []byte("TEXT"), true)
	term("wb ro ig ig ig ig", []byte(start), true)
	term("wb rl ig ig ig ig", []byte(end), true)
	var f bytes.Buffer
	f.Write([]byte{22, 0, 0, 10, 0, 0, 16, 0, 0, 15, 1})
	putString(&f, 17, []byte("FOO"))
	putString(&f, 18, []byte(db))
	putString(&f, 20, []byte("1"))
	putString(&f, 19, []byte(" \x1fDocument Text"))
	putString(&f, 2, []byte("3"))
	apdu := withF(f.Bytes())
	var ext bytes.Buffer
	putGroup(&ext, 21, &q)
	apdu = append(apdu, ext.Bytes()...)
	return append([]byte(strconv.FormatInt(int64(1e10+len(apdu)), 10)[1:]+"z2wais        0"), apdu...)
}

// TestCaptureSearchAndRetrieval: the captured search finds orchard.txt
// first with the fields of the capture; its DocID retrieves the 107 bytes
// (reply `75 01 00 7f 6b` + text); past the end the rest and SF; beyond
// it SF alone.
func TestCaptureSearchAndRetrieval(t *testing.T) {
	_, addr := start(t)
	r := exchange(t, addr, captureSearch(t))[0]
	apdu := r[25:]
	if !bytes.HasPrefix(apdu, hexBytes(t, "00 0e 17 01 00 00 00")) || !bytes.Equal(r[10:24], []byte("z2wais      "+"  ")) {
		t.Fatalf("reply %x", r)
	}
	i := bytes.Index(apdu, []byte("\x74\x81\x21"))
	if i < 0 {
		t.Fatalf("no 161-byte DocID in %x", apdu)
	}
	id := apdu[i+3 : i+3+161]
	if !bytes.HasPrefix(id, []byte("\x01\x07vm:2210\x02\x1a/var/lib/waisdb/index/demo\x03\x280 107 /var/lib/waisdb/corpus/orchard.txt")) || !bytes.HasSuffix(id, []byte{7, 1, 0}) {
		t.Errorf("DocID %q", id)
	}
	for _, want := range []string{"\x78\x01\x6b", "\x81\x03\x01\x02", "\x81\x04\x07\x81\x05\x04TEXT", "\x7b\x12Orchard management"} {
		if !bytes.Contains(apdu[i:], []byte(want)) {
			t.Errorf("first group lacks %x", want)
		}
	}
	rs := exchange(t, addr, retrieval("demo", id, "0", "107"), retrieval("demo", id, "100", "200"), retrieval("demo", id, "200", "300"))
	if !bytes.Contains(rs[0], append([]byte("\x75\x01\x00\x7f\x6b"), orchard...)) {
		t.Errorf("retrieval %q", rs[0])
	}
	sf := append([]byte{0x1c, 0x00, 0x17}, "SFRequest out of range\x01\x1d"...)
	if !bytes.Contains(rs[1], append([]byte("\x7f\x07"), orchard[100:]...)) || !bytes.HasSuffix(rs[1], sf) {
		t.Errorf("past the end %q", rs[1])
	}
	if bytes.Contains(rs[2], []byte{0x7f}) || !bytes.HasSuffix(rs[2], sf) {
		t.Errorf("beyond the end %q", rs[2])
	}
}

// search is the message of a Search of db for seed, asking for 40 hits
// (wais-notes §4).
func search(db, seed string) []byte {
	var f bytes.Buffer
	f.Write([]byte{22, 0, 0, 30, 0, 0x13, 0x88, 0, 0, 30, 1})
	putString(&f, 17, nil)
	putString(&f, 18, []byte(db))
	putString(&f, 20, []byte("3"))
	var in bytes.Buffer
	putString(&in, 106, []byte(seed))
	putNumber(&in, 111, 1)
	putNumber(&in, 114, 40)
	apdu := append(withF(f.Bytes()), wrapExt(&in)...)
	return append([]byte(strconv.FormatInt(int64(1e10+len(apdu)), 10)[1:]+"z2wais        0"), apdu...)
}

func TestSearchSpecialReplies(t *testing.T) {
	_, addr := start(t)
	r := exchange(t, addr, search("demo", ""), search("demo", "zebra"), search("nope", "x"))
	if !bytes.Contains(r[0], []byte("demo.src")) || !bytes.Contains(r[0], []byte("WSRC")) || !bytes.Contains(r[0], []byte("Catalog for database: demo")) {
		t.Errorf("empty seed: %q", r[0])
	}
	if !bytes.Contains(r[1], []byte("Search produced no result. Here's the Catalog for database: demo")) {
		t.Errorf("no hit: %q", r[1])
	}
	s1 := "S1The following database is not available: nope"
	if !bytes.Contains(r[2], []byte("\x1c\x00"+string(rune(len(s1)+1))+s1+"\x00\x1d")) || r[2][25+3] != 0 {
		t.Errorf("unknown database: %q", r[2])
	}
	// A header version above 2, and an unknown tag: the connection drops.
	bad := captureSearch(t)
	bad[11] = '3'
	if r := exchange(t, addr, bad); r[0] != nil {
		t.Errorf("version 3 answered")
	}
	unk := captureSearch(t)
	unk[25+2+22+2] = 0x6b // SeedWords → tag 107
	if r := exchange(t, addr, unk); r[0] != nil {
		t.Errorf("unknown tag answered")
	}
}

// TestInitLowersTheBuffer: after an Init with MaximumRecordSize 2000, a
// 10,000-byte chunk comes back as the empty msg_len 0 reply (notes §6).
func TestInitLowersTheBuffer(t *testing.T) {
	_, addr := start(t)
	var f bytes.Buffer
	f.WriteByte(20)
	putString(&f, 3, []byte{0x80})
	putString(&f, 4, []byte{0x80})
	putNumber(&f, 5, 2000)
	putNumber(&f, 6, 2000)
	initAPDU := withF(f.Bytes())
	init := append([]byte(strconv.FormatInt(int64(1e10+len(initAPDU)), 10)[1:]+"z2wais        0"), initAPDU...)
	var big Document
	for _, d := range Documents() {
		if len(d.Text) > 150000 {
			big = d
		}
	}
	s := &Server{Corpus: "/var/lib/waisdb/corpus", Index: "/var/lib/waisdb/index/demo", Name: "vm:2210"}
	id := (&conn{s: s}).docID(big)
	r := exchange(t, addr, init, retrieval("demo", id, "0", "10000"))
	if len(r) != 2 || r[0] == nil || r[0][25+2] != 21 || string(r[1]) != "0000000000z2wais        0" {
		t.Fatalf("init %q, chunk %q", r[0], r[1])
	}
}
