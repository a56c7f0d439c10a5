package ldap

import (
	"context"
	"errors"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	ber "github.com/go-asn1-ber/asn1-ber"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// fake is a one-connection LDAP server on 127.0.0.1: for each request it
// reads (asn1-ber decodes it), serve returns the bytes to answer with;
// nil closes the connection, as does a reply that ends with closeMark
// (which is not sent). got receives the requests.
type fake struct {
	ln  net.Listener
	got chan *ber.Packet
}

func newFake(t *testing.T, serve func(req *ber.Packet) []byte) *fake {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{ln: ln, got: make(chan *ber.Packet, 16)}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for {
			p, err := ber.ReadPacket(c)
			if err != nil {
				return
			}
			select {
			case f.got <- p:
			default:
			}
			out := serve(p)
			if out == nil {
				return
			}
			text, last := strings.CutSuffix(string(out), closeMark)
			if _, err := io.WriteString(c, text); err != nil || last {
				return
			}
		}
	}()
	return f
}

// closeMark ends a fake's reply after which it closes the connection.
const closeMark = "\x00close"

func (f *fake) url(rest string) string { return "ldap://" + f.ln.Addr().String() + "/" + rest }

// op is the request's protocolOp tag and its message ID.
func op(req *ber.Packet) (ber.Tag, int64) {
	id, _ := req.Children[0].Value.(int64)
	return req.Children[1].Tag, id
}

// reply encodes an LDAPMessage with id, the op's identifier and content
// elements, and controls (nil: none).
func reply(id int64, tag ber.Tag, children []*ber.Packet, controls *ber.Packet) []byte {
	p := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSequence, nil, "")
	p.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, id, ""))
	o := ber.Encode(ber.ClassApplication, ber.TypeConstructed, tag, nil, "")
	for _, c := range children {
		o.AppendChild(c)
	}
	p.AppendChild(o)
	if controls != nil {
		p.AppendChild(controls)
	}
	return p.Bytes()
}

// ldapResult is an LDAPResult's elements, with referral URLs if any.
func ldapResult(code int64, diag string, refs ...string) []*ber.Packet {
	out := []*ber.Packet{
		ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagEnumerated, code, ""),
		ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "", ""),
		ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, diag, ""),
	}
	if len(refs) > 0 {
		r := ber.Encode(ber.ClassContext, ber.TypeConstructed, 3, nil, "")
		for _, u := range refs {
			r.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, u, ""))
		}
		out = append(out, r)
	}
	return out
}

// entryMsg is a SearchResultEntry with one attribute.
func entryMsg(id int64, dn, attr string, vals ...string) []byte {
	set := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSet, nil, "")
	for _, v := range vals {
		set.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, v, ""))
	}
	pa := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSequence, nil, "")
	pa.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, attr, ""))
	pa.AppendChild(set)
	list := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSequence, nil, "")
	list.AppendChild(pa)
	return reply(id, 4, []*ber.Packet{ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, dn, ""), list}, nil)
}

// pagingControls is the controls element of a SearchResultDone with the
// paged results control and cookie.
func pagingControls(cookie string) *ber.Packet {
	val := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSequence, nil, "")
	val.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, 0, ""))
	val.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, cookie, ""))
	c := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSequence, nil, "")
	c.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "1.2.840.113556.1.4.319", ""))
	ov := ber.Encode(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, nil, "")
	ov.Data.Write(val.Bytes())
	c.AppendChild(ov)
	cs := ber.Encode(ber.ClassContext, ber.TypeConstructed, 0, nil, "")
	cs.AppendChild(c)
	return cs
}

func request(t *testing.T, raw string) *schemes.Request {
	t.Helper()
	l, err := parseLDAP(raw)
	if err != nil {
		t.Fatal(err)
	}
	return &schemes.Request{URL: l, Dialer: &transport.Dialer{}, Trace: schemes.NopTrace{}}
}

// fetch retrieves req with h and returns the body and the error.
func fetch(t *testing.T, h *Handler, req *schemes.Request) (string, *schemes.Response, error) {
	t.Helper()
	resp, err := h.Fetch(context.Background(), req)
	if err != nil || resp.Body == nil {
		return "", resp, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), resp, err
}

// TestPages: a search answered in two pages is one body; the second
// request carries the first page's cookie.
func TestPages(t *testing.T) {
	pages := 0
	f := newFake(t, func(req *ber.Packet) []byte {
		tag, id := op(req)
		if tag != 3 {
			return nil
		}
		pages++
		if pages == 1 {
			return append(entryMsg(id, "cn=a,dc=x", "cn", "a"), reply(id, 5, ldapResult(0, ""), pagingControls("next"))...)
		}
		return append(entryMsg(id, "cn=b,dc=x", "cn", "b"), reply(id, 5, ldapResult(0, ""), pagingControls(""))...)
	})
	got, _, err := fetch(t, &Handler{PageSize: 1}, request(t, f.url("dc=x??one")))
	if want := "dn: cn=a,dc=x\ncn: a\n\ndn: cn=b,dc=x\ncn: b\n\n"; err != nil || got != want {
		t.Fatalf("%q, %v; want %q", got, err, want)
	}
	<-f.got
	second := <-f.got
	if !strings.Contains(string(second.Bytes()), "next") {
		t.Error("the second page's request has no cookie")
	}
}

// TestHostileReplies: whatever the server sends, the search fails with
// KindProtocol and without holding more than a message's bound.
func TestHostileReplies(t *testing.T) {
	for name, answer := range map[string]func(id int64) []byte{
		// A SEQUENCE of 1 GiB: refused from its header.
		"huge":           func(int64) []byte { return []byte{0x30, 0x84, 0x40, 0, 0, 0, 0x02, 0x01, 0x01} },
		"indefinite":     func(int64) []byte { return []byte{0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00} },
		"not a sequence": func(int64) []byte { return []byte{0x04, 0x01, 0x41} },
		"inner overrun":  func(id int64) []byte { return []byte{0x30, 0x05, 0x02, 0x01, byte(id), 0x64, 0x7f} },
		"other id":       func(id int64) []byte { return entryMsg(id+5, "cn=a", "cn", "a") },
		"bad entry": func(id int64) []byte {
			return reply(id, 4, []*ber.Packet{ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, 1, "")}, nil)
		},
		"unknown op": func(id int64) []byte { return reply(id, 30, nil, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, func(req *ber.Packet) []byte {
				_, id := op(req)
				return append(answer(id), closeMark...)
			})
			_, _, err := fetch(t, &Handler{}, request(t, f.url("dc=x")))
			if k := schemes.KindOf(err); k != schemes.KindProtocol {
				t.Errorf("err = %v (kind %v), want KindProtocol", err, k)
			}
		})
	}
	// A message cut short by the server's close is a broken connection.
	f := newFake(t, func(*ber.Packet) []byte { return []byte("\x30\x10\x02\x01" + closeMark) })
	if _, _, err := fetch(t, &Handler{}, request(t, f.url("dc=x"))); schemes.KindOf(err) != schemes.KindConnect {
		t.Errorf("cut short: %v, want KindConnect", err)
	}
}

// TestResults: LDAP result codes as kinds; a notice of disconnection
// ends the search with its code.
func TestResults(t *testing.T) {
	for _, tc := range []struct {
		code int64
		id   int64 // 0: the notice of disconnection
		kind schemes.Kind
	}{
		{resultNoSuchObject, 1, schemes.KindNotFound},
		{resultInsufficientAccess, 1, schemes.KindPermission},
		{resultSizeLimitExceeded, 1, schemes.KindProtocol},
		{resultBusy, 1, schemes.KindBusy},
		{resultUnavailable, 0, schemes.KindBusy},
	} {
		f := newFake(t, func(req *ber.Packet) []byte {
			_, id := op(req)
			if tc.id == 0 {
				return reply(0, 24, ldapResult(tc.code, "going down\r\nnow"), nil)
			}
			return reply(id, 5, ldapResult(tc.code, "no"), nil)
		})
		_, _, err := fetch(t, &Handler{}, request(t, f.url("dc=x")))
		var e *schemes.Error
		if !errors.As(err, &e) || e.Kind != tc.kind || e.Code != int(tc.code) {
			t.Errorf("code %d: %v, want kind %v", tc.code, err, tc.kind)
		} else if strings.ContainsAny(e.Msg, "\r\n") {
			t.Errorf("the server's message reaches the error as it is: %q", e.Msg)
		}
	}
}

// TestReferral: a referral result is a Redirect, completed with the
// search's parts when the URL names no DN, without the bind.
func TestReferral(t *testing.T) {
	for _, tc := range []struct{ ref, want string }{
		{"ldap://other.example/", "ldap://other.example/dc=x?cn?sub?(cn=a)"},
		{"ldap://other.example:3389/dc=y??one", "ldap://other.example:3389/dc=y??one"},
	} {
		f := newFake(t, func(req *ber.Packet) []byte {
			tag, id := op(req)
			if tag == 0 {
				return reply(id, 1, ldapResult(0, ""), nil)
			}
			return reply(id, 5, ldapResult(resultReferral, "", "not a url", tc.ref), nil)
		})
		req := request(t, f.url("dc=x?cn?sub?(cn=a)?bindname=cn=m%2Cdc=x"))
		req.Credentials = func(string, string, int) (string, string, bool) { return "", "pw", true }
		_, resp, err := fetch(t, &Handler{}, req)
		if err != nil || resp.Redirect != tc.want {
			t.Errorf("%s: %+v, %v; want a redirect to %s", tc.ref, resp, err, tc.want)
		}
	}
}

// TestStartTLSRefused: with TLS required, a server that refuses StartTLS
// fails the request with KindSafety before any bind is sent.
func TestStartTLSRefused(t *testing.T) {
	f := newFake(t, func(req *ber.Packet) []byte {
		tag, id := op(req)
		if tag != 23 {
			return nil
		}
		return reply(id, 24, ldapResult(resultProtocolError, "no TLS here"), nil)
	})
	req := request(t, f.url("dc=x"))
	req.RequireTLS = true
	req.Credentials = func(string, string, int) (string, string, bool) { return "cn=m,dc=x", "secret", true }
	_, _, err := fetch(t, &Handler{}, req)
	if schemes.KindOf(err) != schemes.KindSafety {
		t.Fatalf("err = %v, want KindSafety", err)
	}
	if p := <-f.got; p.Children[1].Tag != 23 {
		t.Errorf("first request %d, want the ExtendedRequest", p.Children[1].Tag)
	}
	select {
	case p := <-f.got:
		t.Errorf("a request after the refusal: %d", p.Children[1].Tag)
	default:
	}
}

// TestBindNeverShowsThePassword: the trace and a refused bind's error
// name the DN, never the password.
func TestBindNeverShowsThePassword(t *testing.T) {
	f := newFake(t, func(req *ber.Packet) []byte {
		_, id := op(req)
		return reply(id, 1, ldapResult(resultInvalidCredentials, "bad"), nil)
	})
	tr := &schemestest.Trace{}
	req := request(t, f.url("dc=x"))
	req.Trace = tr
	req.Credentials = func(string, string, int) (string, string, bool) { return "cn=m,dc=x", "s3cret-pw", true }
	_, _, err := fetch(t, &Handler{}, req)
	if schemes.KindOf(err) != schemes.KindPermission {
		t.Fatalf("err = %v, want KindPermission", err)
	}
	if s := tr.String() + err.Error(); strings.Contains(s, "s3cret-pw") || !strings.Contains(tr.String(), "bind simple cn=m,dc=x") {
		t.Errorf("trace and error: %q", s)
	}
}

func TestExplain(t *testing.T) {
	h := &Handler{}
	req := request(t, "ldap://h:3389/dc=x?cn?sub?(cn=a)?bindname=cn=m%2Cdc=x")
	req.RequireTLS = true
	plan, err := h.Explain(req)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"connect h:3389", "extended 1.3.6.1.4.1.1466.20037 (StartTLS), then the TLS handshake with h",
		"bind simple cn=m,dc=x (password ****)",
		`search base="dc=x" scope=sub filter=(cn=a) attributes=cn, 500 entries a page (RFC 2696)`,
		"write the entries as LDIF (RFC 2849), as ldapsearch -LLL does"}
	if !slices.Equal(plan, want) {
		t.Errorf("plan %q, want %q", plan, want)
	}
}

// TestListTimes: a listing asks for modifyTimestamp and gives each entry
// its time to the second; a value that is no GeneralizedTime gives none.
func TestListTimes(t *testing.T) {
	stamps := map[string]time.Time{
		"20261205051500Z":   time.Date(2026, 12, 5, 5, 15, 0, 0, time.UTC),
		"20261205051500.0Z": time.Date(2026, 12, 5, 5, 15, 0, 0, time.UTC),
		"20261205051500":    {},
		"2026120505150Z":    {},
		"yesterday":         {},
	}
	for stamp, want := range stamps {
		f := newFake(t, func(req *ber.Packet) []byte {
			tag, id := op(req)
			if tag != 3 {
				return nil
			}
			return append(entryMsg(id, "cn=a,dc=x", "modifyTimestamp", stamp), reply(id, 5, ldapResult(0, ""), nil)...)
		})
		resp, err := (&Handler{}).List(context.Background(), request(t, f.url("dc=x")))
		if err != nil {
			t.Fatal(err)
		}
		ents, err := schemes.ReadAll(resp.Listing)
		if err != nil || len(ents) != 1 || !ents[0].ModTime.Equal(want) || (ents[0].Precision == time.Second) == want.IsZero() {
			t.Errorf("%s: %+v, %v; want time %v", stamp, ents, err, want)
		}
		if req := <-f.got; !strings.Contains(string(req.Bytes()), "modifyTimestamp") {
			t.Errorf("%s: the search does not ask for modifyTimestamp", stamp)
		}
	}
}

// TestSearchReference: a SearchResultReference among a search's entries
// is written where it came, as ldapsearch -LLL writes it, and not
// followed (nothing but the one search is sent); a listing leaves it out.
func TestSearchReference(t *testing.T) {
	serve := func(req *ber.Packet) []byte {
		tag, id := op(req)
		if tag != 3 {
			return nil
		}
		ref := ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "ldap://other.example/dc=y??sub", "")
		out := reply(id, 19, []*ber.Packet{ref}, nil)
		out = append(out, entryMsg(id, "cn=a,dc=x", "cn", "a")...)
		out = append(out, reply(id, 19, []*ber.Packet{ref}, nil)...)
		return append(out, reply(id, 5, ldapResult(0, ""), nil)...)
	}
	f := newFake(t, serve)
	got, _, err := fetch(t, &Handler{}, request(t, f.url("dc=x??sub")))
	ref := "# refldap://other.example/dc=y??sub\n\n"
	if want := ref + "dn: cn=a,dc=x\ncn: a\n\n" + ref; err != nil || got != want {
		t.Errorf("%q, %v; want %q", got, err, want)
	}
	searches := 0
	for len(f.got) > 0 {
		if tag, _ := op(<-f.got); tag == 3 {
			searches++
		}
	}
	if searches != 1 {
		t.Errorf("%d searches, want the one asked for", searches)
	}
	f = newFake(t, serve)
	resp, err := (&Handler{}).List(context.Background(), request(t, f.url("dc=x??sub")))
	if err != nil {
		t.Fatal(err)
	}
	ents, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(ents) != 1 || ents[0].Title != "cn=a,dc=x" {
		t.Errorf("listing: %+v, %v; want cn=a,dc=x alone", ents, err)
	}
}
