// Package waisd is a small, faithful WAIS server for urlget's integration
// tests, written from shared/specs/wais-notes.md as a stand-in for
// freeWAIS-sf 2.2.10 (no Debian package of a WAIS server exists). It shares
// no code with urlget's client (schemes/wais): its encoder and decoder are
// its own, or the tests would prove nothing.
//
// What it does (notes §10): reads the 25-byte header (a version above '2'
// drops the connection) and echoes bytes 10–23; answers an optional Init
// (Result 1, the reply buffer lowered to the client's MaximumRecordSize) and
// Searches on one connection until EOF; query type "3" searches the
// database "demo" (WSRC and catalog for empty seed words, one catalog
// header when nothing matches, an S1 diagnostic for an unknown database,
// hits trimmed to fit the buffer); query type "1" returns a byte range of a
// document (the rest and SF past the end, SF alone beyond it, SF "Bad
// DocID in request" for an unknown DocID, a dropped connection for a DocID
// without its database record). A reply larger than the buffer is a header
// with msg_len 0. Unknown tags drop the connection, as the real server's
// readers skip nothing. The hex encodings ('h', 'i') are not implemented.
//
// With Fixtures set it also serves the test bed's fixture tree as the
// database "fixtures" (fixtures.go), so the conformance suite runs on it.
//
// Four databases misbehave for the client's error tests:
// "hostile-truncated" (half a reply, then the connection closes),
// "hostile-garbage" (a reply that is no APDU), "hostile-overflow" (every
// reply the empty msg_len 0 one) and "hostile-flood" (116,000 hits for any
// search, past the maximum asked and the buffer; flood.go).
package waisd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// DefaultBuffer is the server's reply buffer (wais-notes §6).
const DefaultBuffer = 100000

// Database is the name the corpus is served under.
const Database = "demo"

// Server serves WAIS on a listener. Set the fields before Serve.
type Server struct {
	// Corpus is the directory of the corpus files (WriteCorpus); the
	// DocIDs name its files by this path.
	Corpus string
	// Name is the originalServer of DocIDs, "host:port".
	Name string
	// Index is the database field of DocIDs, the server-side index path;
	// "" means Corpus/index/demo.
	Index string
	// Fixtures, when set, is the test bed's fixture tree, served as the
	// database FixturesDatabase.
	Fixtures string
	// Log, when set, receives a line per request.
	Log *log.Logger

	mu sync.Mutex
	ln net.Listener
}

// indexPath is the database field of DocIDs: the server-side index path.
func (s *Server) indexPath() string {
	if s.Index != "" {
		return s.Index
	}
	return path.Join(s.Corpus, "index", Database)
}

// Serve accepts connections until the listener is closed.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	s.ln = ln
	s.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go s.serveConn(c)
	}
}

// Close stops accepting connections.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Close()
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log.Printf(format, args...)
	}
}

// conn is one client connection's state.
type conn struct {
	s      *Server
	c      net.Conn
	buffer int // the reply buffer: DefaultBuffer or the Init's MaximumRecordSize
}

func (s *Server) serveConn(nc net.Conn) {
	defer nc.Close()
	if tc, ok := nc.(*net.TCPConn); ok {
		// Nagle's algorithm on, as in a C server (Go turns it off): with
		// the two writes of send, a client that delays its ACKs waits for
		// them on every reply, as it does with freeWAIS-sf.
		tc.SetNoDelay(false)
	}
	cn := &conn{s: s, c: nc, buffer: DefaultBuffer}
	br := bufio.NewReader(nc)
	for {
		var hdr [25]byte
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return
		}
		if hdr[11] > '2' { // the header version: the real child aborts
			s.logf("header version %q: dropped", hdr[11])
			return
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(hdr[:10])))
		if err != nil || n <= 0 || n > DefaultBuffer {
			s.logf("msg_len %q: dropped", hdr[:10])
			return
		}
		apdu := make([]byte, n)
		if _, err := io.ReadFull(br, apdu); err != nil {
			return
		}
		reply, err := cn.answer(apdu)
		if err != nil {
			s.logf("%v", err)
			return
		}
		if reply == nil {
			return
		}
		if err := cn.send(hdr, reply); err != nil {
			return
		}
	}
}

// send writes a reply with the request's header bytes 10–23 echoed; one
// over the buffer goes as msg_len 0 with no APDU. As freeWAIS-sf does, the
// 25-byte header and the APDU are two writes: with Nagle's algorithm on
// (serveConn), the APDU leaves only once the header is acknowledged, which
// a client that delays its ACKs pays for on every reply (~40 ms on Linux;
// issue 23 measured 42 ms a range against the real server).
func (cn *conn) send(req [25]byte, r *built) error {
	apdu := r.apdu
	if len(apdu) > cn.buffer && r.mode != FloodDatabase || r.mode == "hostile-overflow" {
		apdu = nil
	}
	out := fmt.Appendf(nil, "%010d", len(apdu))
	out = append(out, req[10:24]...)
	out = append(out, '0')
	out = append(out, apdu...)
	switch r.mode {
	case "hostile-truncated":
		cn.c.Write(out[:len(out)/2])
		return errors.New("truncated on purpose")
	case "hostile-garbage":
		out = append(fmt.Appendf(nil, "%010d", 6), req[10:24]...)
		out = append(out, '0')
		out = append(out, 0xff, 0xff, 0x17, 0x01, 0x02, 0x03)
	}
	if _, err := cn.c.Write(out[:25]); err != nil || len(out) == 25 {
		return err
	}
	_, err := cn.c.Write(out[25:])
	return err
}

// built is a reply APDU, and how to misbehave with it.
type built struct {
	apdu []byte
	mode string
}

// answer builds the reply to one APDU; nil with no error closes quietly.
func (cn *conn) answer(apdu []byte) (*built, error) {
	if len(apdu) < 3 {
		return nil, errDrop
	}
	f := int(apdu[0])<<8 | int(apdu[1])
	if 2+f > len(apdu) {
		return nil, fmt.Errorf("%w: F = %d in a %d-byte APDU", errDrop, f, len(apdu))
	}
	fixed, ext := apdu[2:2+f], apdu[2+f:]
	switch fixed[0] {
	case 20:
		return cn.init(fixed[1:], ext)
	case 22:
		return cn.search(fixed[1:], ext)
	}
	return nil, fmt.Errorf("%w: PDU type %d", errDrop, fixed[0])
}

// init answers an Init (wais-notes §4) and lowers the buffer to the
// client's MaximumRecordSize.
func (cn *conn) init(body, ext []byte) (*built, error) {
	fs, err := fieldsOf(body, 3, 4, 5, 6, 7, 8, 9, 10)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if f.tag == 6 {
			if n := numberOf(f.val); n > 0 && n < cn.buffer {
				cn.buffer = n
			}
		}
	}
	var w bytes.Buffer
	w.WriteByte(21)
	w.WriteByte(1) // Result: accepted
	putString(&w, 3, []byte{0x80})
	putString(&w, 4, []byte{0x80})
	putNumber(&w, 5, cn.buffer)
	putNumber(&w, 6, cn.buffer)
	putString(&w, 8, []byte("LS6"))
	putString(&w, 9, []byte("urlget waisd"))
	putString(&w, 10, []byte("1"))
	out := withF(w.Bytes())
	out = append(out, 0x63, 0x06, 0x64, 0x01, 0x00, 0x65, 0x01, 0x00)
	cn.s.logf("Init: buffer %d", cn.buffer)
	return &built{apdu: out}, nil
}

// withF prefixes the fixed part with its 2-byte length.
func withF(fixed []byte) []byte {
	return append([]byte{byte(len(fixed) >> 8), byte(len(fixed))}, fixed...)
}

// search answers a Search APDU: query type "3" (a search) or "1" (a
// retrieval).
func (cn *conn) search(body, ext []byte) (*built, error) {
	if len(body) < 10 {
		return nil, errDrop
	}
	fs, err := fieldsOf(body[10:], 2, 17, 18, 19, 20)
	if err != nil {
		return nil, err
	}
	var db, qtype string
	var refID []byte
	for _, f := range fs {
		switch f.tag {
		case 18:
			db = string(f.val)
		case 20:
			qtype = string(f.val)
		case 2:
			refID = f.val
		}
	}
	mode := ""
	if strings.HasPrefix(db, "hostile-") {
		mode = db
	}
	switch qtype {
	case "3":
		if len(ext) == 0 {
			return nil, fmt.Errorf("%w: search without its WAIS fields", errDrop)
		}
		c := &cursor{buf: ext}
		wrap, err := c.next()
		if err != nil || wrap.tag != 99 || c.more() {
			return nil, fmt.Errorf("%w: search extension", errDrop)
		}
		inner, err := fieldsOf(wrap.val, 106, 111, 114)
		if err != nil {
			return nil, err
		}
		seed, max := "", 100
		for _, f := range inner {
			switch f.tag {
			case 106:
				seed = string(f.val)
			case 114:
				max = numberOf(f.val)
			}
		}
		cn.s.logf("Search db=%s seed=%q max=%d", db, seed, max)
		return &built{apdu: cn.searchReply(db, seed, max, refID), mode: mode}, nil
	case "1":
		r, err := cn.retrieve(db, ext, refID)
		if err != nil {
			return nil, err
		}
		r.mode = mode
		return r, nil
	}
	return nil, fmt.Errorf("%w: query type %q", errDrop, qtype)
}

// responseHead writes a SearchResponse's fixed part (wais-notes §4):
// status, ResultCount 0 (always, as freeWAIS-sf), the records returned,
// next position 0, PresentStatus 0, and the RefID when there was one.
func responseHead(status, records int, refID []byte) []byte {
	var w bytes.Buffer
	w.WriteByte(23)
	w.WriteByte(byte(status))
	counter3(&w, 0)
	counter3(&w, records)
	counter3(&w, 0)
	putString(&w, 27, []byte{0})
	if refID != nil {
		putString(&w, 2, refID)
	}
	return withF(w.Bytes())
}

// hit is a scored document of the database whose index path is index,
// in the server's file file.
type hit struct {
	doc         Document
	score       int
	index, file string
}

// searchReply scores the corpus against seed and writes the reply,
// dropping the lowest hits until it fits the buffer.
func (cn *conn) searchReply(db, seed string, max int, refID []byte) []byte {
	if db == FixturesDatabase && cn.s.Fixtures != "" {
		return cn.fixturesReply(seed, max, refID)
	}
	if db == FloodDatabase {
		return floodReply(refID)
	}
	if db != Database {
		var ext bytes.Buffer
		putDiagnostic(&ext, "S1", "The following database is not available: "+db)
		return append(responseHead(0, 1, refID), wrapExt(&ext)...)
	}
	words := strings.Fields(strings.ToLower(seed))
	if len(words) == 0 {
		return cn.headersReply([]*bytes.Buffer{cn.specialHeader(cn.s.indexPath(), "source", "WSRC", Database+".src", sourceText()),
			cn.specialHeader(cn.s.indexPath(), "catalog", "TEXT", "Catalog for database: "+Database, catalogText())}, refID)
	}
	var hits []hit
	for _, d := range Documents() {
		text := strings.ToLower(string(d.Text))
		score := 0
		for _, w := range words {
			score += 100 * strings.Count(text, w)
		}
		if score > 0 {
			hits = append(hits, hit{d, score, cn.s.indexPath(), path.Join(cn.s.Corpus, d.File)})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	if len(hits) > max {
		hits = hits[:max]
	}
	if len(hits) == 0 {
		return cn.headersReply([]*bytes.Buffer{cn.specialHeader(cn.s.indexPath(), "catalog", "TEXT",
			"Search produced no result. Here's the Catalog for database: "+Database, catalogText())}, refID)
	}
	return cn.hitsReply(hits, refID)
}

// hitsReply is the reply listing hits, the lowest dropped until it fits
// the buffer.
func (cn *conn) hitsReply(hits []hit, refID []byte) []byte {
	for {
		groups := make([]*bytes.Buffer, len(hits))
		for i, h := range hits {
			groups[i] = cn.hitHeader(h)
		}
		out := cn.headersReply(groups, refID)
		if len(out) <= cn.buffer || len(hits) == 1 {
			return out
		}
		hits = hits[:len(hits)-1] // trimmed, as the real server does
	}
}

// headersReply is a successful search's reply holding groups.
func (cn *conn) headersReply(groups []*bytes.Buffer, refID []byte) []byte {
	var ext bytes.Buffer
	for _, g := range groups {
		putGroup(&ext, 150, g)
	}
	return append(responseHead(1, len(groups), refID), wrapExt(&ext)...)
}

// wrapExt wraps the extension fields in tag 99.
func wrapExt(inner *bytes.Buffer) []byte {
	var w bytes.Buffer
	putGroup(&w, 99, inner)
	return w.Bytes()
}

// docID writes the DocID of a document of the corpus (wais-notes §5).
func (cn *conn) docID(d Document) []byte {
	return DocID(cn.s.Name, cn.s.indexPath(), path.Join(cn.s.Corpus, d.File), d.Start, d.End)
}

// DocID is a DocID as the server writes it (wais-notes §5): server name,
// database index path and local id "start end file", their copies as the
// distributor's, and the copyright disposition.
func DocID(server, index, file string, start, end int) []byte {
	var w bytes.Buffer
	local := fmt.Sprintf("%d %d %s", start, end, file)
	for _, base := range []int{0, 3} {
		putString(&w, base+1, []byte(server))
		putString(&w, base+2, []byte(index))
		putString(&w, base+3, []byte(local))
	}
	putString(&w, 7, []byte{0})
	return w.Bytes()
}

// hitHeader is a hit's DocumentHeaderGroup.
func (cn *conn) hitHeader(h hit) *bytes.Buffer {
	var g bytes.Buffer
	putString(&g, 116, DocID(cn.s.Name, h.index, h.file, h.doc.Start, h.doc.End))
	putNumber(&g, 118, h.score)
	putNumber(&g, 119, 0)
	putNumber(&g, 120, h.doc.End-h.doc.Start)
	putNumber(&g, 131, bytes.Count(h.doc.Text, []byte("\n")))
	var types, t bytes.Buffer
	putString(&t, 133, []byte(h.doc.Type))
	types.Write(t.Bytes())
	putGroup(&g, 132, &types)
	putString(&g, 121, []byte(h.index))
	putString(&g, 122, []byte("0"))
	putString(&g, 123, []byte(h.doc.Headline))
	return &g
}

// specialHeader is the header of the WSRC or catalog document: DocID
// records 2, 3 and 7 only, no BestMatch, no Date.
func (cn *conn) specialHeader(index, local, typ, headline string, text []byte) *bytes.Buffer {
	var id bytes.Buffer
	putString(&id, 2, []byte(index))
	putString(&id, 3, []byte(local))
	putString(&id, 7, []byte{0})
	var g bytes.Buffer
	putString(&g, 116, id.Bytes())
	putNumber(&g, 118, 0)
	putNumber(&g, 120, len(text))
	putNumber(&g, 131, bytes.Count(text, []byte("\n")))
	var types bytes.Buffer
	putString(&types, 133, []byte(typ))
	putGroup(&g, 132, &types)
	putString(&g, 121, []byte(index))
	putString(&g, 123, []byte(headline))
	return &g
}

// sourceText is the database's WSRC description.
func sourceText() []byte {
	return []byte("(:source\n   :version  3\n   :ip-name \"127.0.0.1\"\n   :tcp-port 2210\n   :database-name \"demo\"\n" +
		"   :description \"urlget's WAIS test corpus.\"\n)\n")
}

// catalogText lists the headlines of the corpus.
func catalogText() []byte {
	var b bytes.Buffer
	b.WriteString("Catalog for database: demo\n")
	for _, d := range Documents() {
		fmt.Fprintf(&b, "Headline: %s\n", d.Headline)
	}
	return b.Bytes()
}
