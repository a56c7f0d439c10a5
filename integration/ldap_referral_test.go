//go:build integration

package integration

import (
	"bytes"
	"net"
	"strings"
	"testing"

	ber "github.com/go-asn1-ber/asn1-ber"

	"github.com/urlget/urlget/integration/testbed"
	"github.com/urlget/urlget/internal/await"
)

// referralServer is an LDAP server on 127.0.0.1 that answers every
// search with a referral (RFC 4511 §4.1.10) to to, and every bind with
// success; it returns its address.
func referralServer(t *testing.T, to string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	result := func(id int64, tag ber.Tag, code int64, refs ...string) []byte {
		m := ber.Encode(ber.ClassUniversal, ber.TypeConstructed, ber.TagSequence, nil, "")
		m.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagInteger, id, ""))
		o := ber.Encode(ber.ClassApplication, ber.TypeConstructed, tag, nil, "")
		o.AppendChild(ber.NewInteger(ber.ClassUniversal, ber.TypePrimitive, ber.TagEnumerated, code, ""))
		o.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "", ""))
		o.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, "", ""))
		if len(refs) > 0 {
			r := ber.Encode(ber.ClassContext, ber.TypeConstructed, 3, nil, "")
			for _, u := range refs {
				r.AppendChild(ber.NewString(ber.ClassUniversal, ber.TypePrimitive, ber.TagOctetString, u, ""))
			}
			o.AppendChild(r)
		}
		m.AppendChild(o)
		return m.Bytes()
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				for {
					p, err := ber.ReadPacket(c)
					if err != nil || len(p.Children) < 2 {
						return
					}
					id, _ := p.Children[0].Value.(int64)
					switch p.Children[1].Tag {
					case 0: // BindRequest
						c.Write(result(id, 1, 0))
					case 3: // SearchRequest
						c.Write(result(id, 5, 10, to))
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// TestLDAPReferral: a referral is a redirect under the redirect rules:
// refused by default (LDAP is not among the schemes redirects may lead
// to), followed with -L and --proto-redir, the search's parts carried to
// the URL the referral names without a DN; the bind given for the first
// server (-u) is not sent to the second.
func TestLDAPReferral(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	addr := referralServer(t, "ldap://"+testbed.Addr(testbed.LDAPPort)+"/")
	dn := testbed.LDAPBindDN
	first := "ldap://" + addr + "/" + dn
	if r := runLDAP(t, "-L", first); r.code == 0 || !strings.Contains(r.stderr, "redirect") {
		t.Errorf("by default: exit %d, %q; want the redirect refused", r.code, r.stderr)
	}
	want := string(ldapsearch(t, "-b", dn, "-s", "base"))
	r := runLDAP(t, "-L", "--proto-redir", "=ldap", "-u", dn+":"+testbed.LDAPBindPassword, first)
	if r.code != 0 || r.stdout != want || strings.Contains(r.stdout, "userPassword") {
		t.Errorf("followed: exit %d, %q; want the anonymous %q\n%s", r.code, r.stdout, want, r.stderr)
	}
}

// TestLDAPReference: a search below ou=referrals meets the referral
// object ou=elsewhere, which slapd sends as a SearchResultReference to
// ou=team1,ou=dept1: urlget writes it where ldapsearch -LLL does, as it
// does, byte for byte, and follows it no more than ldapsearch does
// (without -C): not by default, and not with -L and --proto-redir =ldap
// either, the one search is sent (slapd's log) and -v says so.
func TestLDAPReference(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	top := "ou=referrals," + testbed.LDAPSuffix
	team := "ou=team1,ou=dept1," + testbed.LDAPSuffix
	for _, scope := range []string{"one", "sub"} {
		want := string(ldapsearch(t, "-b", top, "-s", scope))
		ref := "# refldap://" + testbed.Addr(testbed.LDAPPort) + "/" + team
		if !strings.Contains(want, "\n"+ref) {
			t.Fatalf("%s: ldapsearch shows no reference to %s:\n%s", scope, team, want)
		}
		for _, args := range [][]string{nil, {"-L", "--proto-redir", "=ldap", "-v"}} {
			off := testbed.LogSize(testbed.Slapd)
			// From the process's own address: its searches are told from
			// other clients' in slapd's log (slapdLinesFrom).
			r := runLDAP(t, append(append([]string{"--interface", testbed.ClientIP.String()}, args...), ldapURL(top+"??"+scope))...)
			if r.code != 0 || r.stdout != want {
				t.Errorf("%s %q: exit %d, %q; want ldapsearch's %q\n%s", scope, args, r.code, r.stdout, want, r.stderr)
			}
			if args != nil && !strings.Contains(r.stderr, "< reference ldap://"+testbed.Addr(testbed.LDAPPort)+"/"+team) {
				t.Errorf("%s: -v does not show the reference:\n%s", scope, r.stderr)
			}
			var log []byte
			await.Poll(func() bool {
				all, _ := testbed.ReadProtocolLogSince(testbed.Slapd, off)
				log = slapdLinesFrom(all, testbed.ClientIP.String())
				return bytes.Contains(log, []byte(" SEARCH RESULT ")) && bytes.Contains(log, []byte(" SRCH base="))
			})
			if n := bytes.Count(log, []byte(" SRCH base=")); n != 1 || bytes.Contains(log, []byte(`base="`+team+`"`)) {
				t.Errorf("%s %q: %d searches, want the one asked for, not the team's\n%s", scope, args, n, log)
			}
		}
	}
}
