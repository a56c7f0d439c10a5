package z3950

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/internal/ber"
	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// fakeServer is a Z39.50 server that answers each APDU with answer's
// reply; an empty reply closes the connection.
func fakeServer(t *testing.T, answer func(n node) []byte) string {
	addr, _ := countingServer(t, answer)
	return addr
}

// countingServer is fakeServer, counting the connections it accepts.
func countingServer(t *testing.T, answer func(n node) []byte) (string, *atomic.Int32) {
	var conns atomic.Int32
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range open { // a client's kept association ends with the test
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			mu.Lock()
			open = append(open, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					b, err := readAPDU(br, maxAPDU)
					if err != nil {
						return
					}
					n, err := decode(b)
					if err != nil {
						return
					}
					r := answer(n)
					if len(r) == 0 {
						return
					}
					if _, err := c.Write(r); err != nil {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String(), &conns
}

// ztestLike answers as yaz-ztest does: a one-word numeric query finds
// that many records, others one; records are SUTRS "record N".
func ztestLike(extra func(n node) []byte) func(n node) []byte {
	return func(n node) []byte {
		if extra != nil {
			if r := extra(n); r != nil {
				return r
			}
		}
		switch n.tag {
		case pduInitRequest:
			return ctxCons(pduInitResponse, ctxBits(3, 3, 2), ctxBits(4, 15, 0, 1), ctxInt(5, 1<<20), ctxInt(6, 1<<20), ctxBool(12, true))
		case pduSearchRequest:
			count := int64(1)
			fmt.Sscan(termOf(n), &count)
			return ctxCons(pduSearchResponse, ctxInt(23, count), ctxInt(24, 0), ctxInt(25, 1), ctxBool(22, true))
		case pduPresentRequest:
			start, _ := n.ctx(30).int()
			num, _ := n.ctx(29).int()
			var recs [][]byte
			for i := start; i < start+num; i++ {
				recs = append(recs, sutrsRecord(fmt.Sprintf("record %d\n", i)))
			}
			return ctxCons(pduPresentResponse, ctxInt(24, num), ctxInt(25, start+num), ctxInt(27, 0), ctxCons(28, recs...))
		case pduClose:
			return ctxCons(pduClose, ctxInt(211, 0))
		}
		return nil
	}
}

// termOf is the first term of a SearchRequest's query.
func termOf(n node) string {
	var find func(n *node) string
	find = func(n *node) string {
		if n.is(ber.ClassContext, 45) {
			return string(n.content)
		}
		for i := range n.kids {
			if s := find(&n.kids[i]); s != "" {
				return s
			}
		}
		return ""
	}
	return find(&n)
}

func sutrsRecord(text string) []byte {
	ext := ber.TLV(ber.ClassUniversal, true, ber.TagExternal, uniOID(oidSUTRS), ctxCons(0, ber.TLV(ber.ClassUniversal, false, ber.TagGeneralString, []byte(text))))
	return ber.TLV(ber.ClassUniversal, true, ber.TagSequence, ctxStr(0, "Default"), ctxCons(1, ctxCons(1, ext)))
}

func request(t *testing.T, raw string) (*schemes.Request, *schemestest.Trace) {
	t.Helper()
	u, err := schemes.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	z, err := Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	tr := &schemestest.Trace{}
	return &schemes.Request{URL: z, Dialer: testDialer, Trace: tr}, tr
}

// testDialer serves every request of the tests, as one fetch Client's
// does: pooled sessions are keyed by it.
var testDialer = &transport.Dialer{}

func list(t *testing.T, h *Handler, raw string) ([]schemes.Entry, *schemestest.Trace, error) {
	t.Helper()
	return listWith(t, h, raw, nil)
}

func TestListBoundedByMax(t *testing.T) {
	addr := fakeServer(t, ztestLike(nil))
	entries, tr, err := list(t, &Handler{Max: 150}, "z39.50s://"+addr+"/Default?1000;rs=sutrs")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 150 || entries[149].Name != "150" || entries[149].Title != "record 150" {
		t.Fatalf("%d entries, last %+v", len(entries), entries[len(entries)-1])
	}
	s := tr.String()
	for _, want := range []string{"> SearchRequest databaseNames=Default query=type-1 bib-1 \"1000\"",
		"> PresentRequest resultSetStartPoint=1 numberOfRecordsRequested=100 preferredRecordSyntax=sutrs",
		"> PresentRequest resultSetStartPoint=101 numberOfRecordsRequested=50", "< Close closeReason=0"} {
		if !strings.Contains(s, want) {
			t.Errorf("trace lacks %q:\n%s", want, s)
		}
	}
}

func TestRetrieve(t *testing.T) {
	addr := fakeServer(t, ztestLike(nil))
	req, _ := request(t, "z39.50r://"+addr+"/Default?1;rs=sutrs")
	resp, err := (&Handler{}).Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "record 1\n" || resp.Type != "text/plain" {
		t.Errorf("body %q type %q", b, resp.Type)
	}
	for docid, kind := range map[string]schemes.Kind{"0": schemes.KindNotFound, "2": schemes.KindProtocol} {
		req, _ := request(t, "z39.50r://"+addr+"/Default?"+docid)
		if _, err := (&Handler{}).Fetch(context.Background(), req); schemes.KindOf(err) != kind {
			t.Errorf("docid %s: err %v, want %v", docid, err, kind)
		}
	}
}

// TestDiagnostics: a search's bib-1 diagnostic is the error's kind, and
// its message says the condition's meaning beside its number.
func TestDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		condition int64
		kind      schemes.Kind
		says      string
	}{
		{diagNoSuchDatabase, schemes.KindNotFound, `bib-1 235 (database does not exist) "Nope"`},
		{diagDatabaseUnavailable, schemes.KindNotFound, "bib-1 109 (database unavailable)"},
		{diagDatabaseDenied, schemes.KindPermission, "bib-1 236 (access to the database denied)"},
		{diagBadLogin, schemes.KindPermission, "bib-1 1011 (bad user id or password)"},
		{23, schemes.KindProtocol, "bib-1 23 (this combination of databases is not supported)"},
		{9999, schemes.KindProtocol, `bib-1 9999 "Nope"`},
	} {
		addr := fakeServer(t, ztestLike(func(n node) []byte {
			if n.tag != pduSearchRequest {
				return nil
			}
			diag := ctxCons(130, uniOID(oidDiagBib1), ber.TLV(ber.ClassUniversal, false, ber.TagInteger, ber.IntContents(tc.condition)),
				ber.TLV(ber.ClassUniversal, false, ber.TagVisibleString, []byte("Nope")))
			return ctxCons(pduSearchResponse, ctxInt(23, 0), ctxInt(24, 0), ctxInt(25, 1), ctxBool(22, false), diag)
		}))
		_, _, err := list(t, &Handler{}, "z39.50s://"+addr+"/Nope?x")
		if schemes.KindOf(err) != tc.kind || !strings.Contains(fmt.Sprint(err), tc.says) {
			t.Errorf("condition %d: err = %v (kind %v), want kind %v saying %s", tc.condition, err, schemes.KindOf(err), tc.kind, tc.says)
		}
		if tc.kind == schemes.KindNotFound && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("condition %d: %v is not fs.ErrNotExist", tc.condition, err)
		}
	}
}

// TestHostileReplies: a reply that claims more than the limit, one that
// never ends, more records than asked, and a Close instead of a reply
// each fail as protocol errors.
func TestHostileReplies(t *testing.T) {
	for name, reply := range map[string][]byte{
		"huge":         {0xb9, 0x84, 0x7f, 0xff, 0xff, 0xff},
		"too many":     ctxCons(pduPresentResponse, ctxInt(24, 2), ctxInt(25, 3), ctxInt(27, 0), ctxCons(28, sutrsRecord("a"), sutrsRecord("b"))),
		"close":        ctxCons(pduClose, ctxInt(211, 2), ctxStr(3, "go away")),
		"wrong answer": ctxCons(pduSearchResponse, ctxInt(23, 1), ctxInt(24, 0), ctxInt(25, 1), ctxBool(22, true)),
	} {
		t.Run(name, func(t *testing.T) {
			addr := fakeServer(t, ztestLike(func(n node) []byte {
				if n.tag == pduPresentRequest {
					return reply
				}
				return nil
			}))
			req, _ := request(t, "z39.50r://"+addr+"/Default?1")
			_, err := (&Handler{}).Fetch(context.Background(), req)
			if schemes.KindOf(err) != schemes.KindProtocol {
				t.Errorf("err = %v, want a protocol error", err)
			}
		})
	}
}

func TestNoWordsListsDatabases(t *testing.T) {
	addr := fakeServer(t, ztestLike(nil))
	entries, _, err := list(t, &Handler{}, "z39.50s://"+addr+"/a+b")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[1].Kind != schemes.EntrySearch || entries[1].Locator.String() != "z39.50s://"+addr+"/b" {
		t.Fatalf("entries %+v", entries)
	}
	s, err := entries[1].Locator.(schemes.Searcher).WithSearch("x y")
	if err != nil || s.String() != "z39.50s://"+addr+"/b?x%20y" {
		t.Errorf("WithSearch: %v %v", s, err)
	}
}

func TestExplain(t *testing.T) {
	req, _ := request(t, "z39.50r://h/db?x;esn=F;rs=xml")
	plan, err := (&Handler{}).Explain(req)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(plan, "\n")
	for _, want := range []string{"connect h:210", "InitializeRequest", "SearchRequest databaseNames=db query=type-1 bib-1 \"x\"",
		"PresentRequest resultSetStartPoint=1 numberOfRecordsRequested=1 elementSetName=F preferredRecordSyntax=xml", "Close"} {
		if !strings.Contains(got, want) {
			t.Errorf("plan lacks %q:\n%s", want, got)
		}
	}
}

// TestAssociationPooled: URLs to one server, of both schemes, share one
// association (one Init) through the request's Conns; one the server
// closed while idle is found stale and replaced once.
func TestAssociationPooled(t *testing.T) {
	inits, closes := atomic.Int32{}, atomic.Int32{}
	closeNext := atomic.Bool{}
	addr, conns := countingServer(t, ztestLike(func(n node) []byte {
		switch n.tag {
		case pduInitRequest:
			inits.Add(1)
		case pduClose:
			closes.Add(1)
		}
		if n.tag == pduSearchRequest && closeNext.CompareAndSwap(true, false) {
			return []byte{} // the connection closed, as by a server's idle timeout
		}
		return nil
	}))
	pool := &transport.Pool{}
	defer pool.CloseIdle()
	h := &Handler{}
	urls := []string{"z39.50s://" + addr + "/Default?3", "z39.50r://" + addr + "/Default?1;rs=sutrs", "z39.50s://" + addr + "/Default?2",
		"z39.50s://" + addr + "/Default?4"}
	for i, raw := range urls {
		if i == 3 {
			if conns.Load() != 1 || inits.Load() != 1 {
				t.Errorf("%d connections, %d Inits for three URLs; want one", conns.Load(), inits.Load())
			}
			closeNext.Store(true)
		}
		req, _ := request(t, raw)
		req.Conns = pool
		resp, err := h.Fetch(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if resp.Listing != nil {
			for {
				if _, err := resp.Listing.Next(); err != nil {
					break
				}
			}
			resp.Listing.Close()
		} else {
			io.ReadAll(resp.Body)
			resp.Body.Close()
		}
	}
	if conns.Load() != 2 || inits.Load() != 2 {
		t.Errorf("after a stale association: %d connections, %d Inits; want two", conns.Load(), inits.Load())
	}
	// The kept association ends with Close when the pool lets it go.
	pool.CloseIdle()
	if closes.Load() != 1 {
		t.Errorf("%d Close APDUs after CloseIdle, want 1", closes.Load())
	}
}

// TestPresentAhead: once a batch of records has come, the next is asked
// for before the first record of the batch is listed (the server works
// while the client lists), one request under way at a time; a listing
// closed with that request under way reads its answer, and the
// association serves the next URL in step.
func TestPresentAhead(t *testing.T) {
	addr, conns := countingServer(t, ztestLike(nil))
	pool := &transport.Pool{}
	defer pool.CloseIdle()
	h := &Handler{Max: 250}
	req, tr := request(t, "z39.50s://"+addr+"/Default?1000;rs=sutrs")
	req.Conns = pool
	resp, err := h.List(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	e, err := resp.Listing.Next()
	if err != nil || e.Name != "1" {
		t.Fatalf("first entry %+v, %v", e, err)
	}
	s := tr.String()
	if !strings.Contains(s, "> PresentRequest resultSetStartPoint=101 numberOfRecordsRequested=100") ||
		strings.Contains(s, "resultSetStartPoint=201") {
		t.Errorf("after the first record, trace:\n%s", s)
	}
	if err := resp.Listing.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _, err := listWith(t, h, "z39.50s://"+addr+"/Default?7;rs=sutrs", pool)
	if err != nil || len(entries) != 7 || entries[6].Title != "record 7" {
		t.Fatalf("the next URL on the kept association: %d entries, %v", len(entries), err)
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections, want the one association kept in step", n)
	}
}

// listWith is list with the request's Conns set to pool (nil: none).
func listWith(t *testing.T, h *Handler, raw string, pool schemes.Conns) ([]schemes.Entry, *schemestest.Trace, error) {
	t.Helper()
	req, tr := request(t, raw)
	req.Conns = pool
	resp, err := h.List(context.Background(), req)
	if err != nil {
		return nil, tr, err
	}
	var out []schemes.Entry
	for {
		e, err := resp.Listing.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, tr, err
		}
		out = append(out, e)
	}
	return out, tr, resp.Listing.Close()
}
