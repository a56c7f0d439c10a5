//go:build integration

package integration

import (
	"net/url"
	"strings"
	"testing"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/testbed"
)

// TestLDAPGateway: the gateway shows a search as a page of its entries,
// each linking to the gateway address of the entry's own URL (a base
// search of its DN), under a search form for the subtree; the form's words
// search the subtree, escaped as filter values. An entry's page is its record's
// lines, as ldapsearch prints them, then links to its children; its Up
// link leads to its parent entry's page, its crumbs to each entry above.
func TestLDAPGateway(t *testing.T) {
	testbed.Require(t, testbed.Slapd)
	base := startGateway(t, gateway.Options{})
	team := "ou=team3,ou=dept2," + testbed.LDAPSuffix
	resp, body := gatewayGet(t, base, ldapURL(team+"??one"), "")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("search: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	links, _ := pageLinks(t, body)
	dn := "cn=Zoë Ñandú 95," + team
	if got, want := links[dn], gateway.Address(ldapURL("cn=Zo%C3%AB%20%C3%91and%C3%BA%2095,"+team)); got != want {
		t.Errorf("%s links to %q, want %q", dn, got, want)
	}
	if n := strings.Count(string(body), ","+team+"</a>"); n != 15 {
		t.Errorf("%d entries on the page, want 15\n%s", n, body)
	}
	if !strings.Contains(string(body), `<form class="search"`) {
		t.Errorf("no search form on the page\n%s", body)
	}
	resp, rec := gatewayGetURL(t, base+links[dn], "")
	recLinks, text := pageLinks(t, rec)
	for line := range strings.Lines(string(ldapsearch(t, "-b", dn, "-s", "base"))) {
		if line = strings.TrimSuffix(line, "\n"); !strings.Contains(text, line) {
			t.Errorf("the record's page does not read ldapsearch's line %q", line)
		}
	}
	if resp.StatusCode != 200 || !strings.Contains(string(rec), `<form class="search"`) {
		t.Errorf("the record: %d\n%s", resp.StatusCode, rec)
	}
	// Up leads to the parent entry's page (a base search of the
	// parent DN), and the crumbs name each entry above, up to the
	// server's root.
	dept := "ou=dept2," + testbed.LDAPSuffix
	if got, want := recLinks["Up to ou=team3"], gateway.Address(ldapURL(team)); got != want {
		t.Errorf("the record's Up link leads to %q, want %q (the team's page)\n%v", got, want, recLinks)
	}
	for name, u := range map[string]string{"ou=dept2": ldapURL(dept), "dc=example": ldapURL(testbed.LDAPSuffix), "dc=org": ldapURL("dc=org"), ldapURL(""): ldapURL("")} {
		if got, want := recLinks[name], gateway.Address(u); got != want {
			t.Errorf("the crumb %s leads to %q, want %q", name, got, want)
		}
	}
	resp, up := gatewayGetURL(t, base+recLinks["Up to ou=team3"], "")
	if upLinks, upText := pageLinks(t, up); resp.StatusCode != 200 || !strings.Contains(upText, "dn: "+team) || upLinks[dn] != links[dn] {
		t.Errorf("the Up page: %d, no record of %s or no link to %s\n%s", resp.StatusCode, team, dn, up)
	}
	// An entry with children: its record, then links to them.
	resp, body = gatewayGet(t, base, ldapURL(dept), "")
	kids, text := pageLinks(t, body)
	if resp.StatusCode != 200 || !strings.Contains(text, "dn: "+dept) || kids[team+"/"] != gateway.Address(ldapURL(team)) {
		t.Errorf("%s: %d %v\n%s", dept, resp.StatusCode, kids, body)
	}
	// The form: words that are no filter search cn, sn, mail and uid.
	form := base + "/search?url=" + url.QueryEscape(ldapURL(team+"??sub")) + "&q=" + url.QueryEscape("Zoë")
	resp, body = gatewayGetURL(t, form, "")
	found, _ := pageLinks(t, body)
	if resp.StatusCode != 200 || found[dn] == "" || strings.Count(string(body), ","+team+"</a>") != 3 {
		t.Errorf("search for Zoë: %d\n%s", resp.StatusCode, body)
	}
}
