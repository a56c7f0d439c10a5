package schemestest

import (
	"testing"

	"github.com/urlget/urlget/schemes"
)

// Example is a URL and its canonical form: what Registry.Canonical,
// `urlget canon`, the "url" of `urlget parse` and
// fetch.Client.Parse(Raw).String() must all give. Canon "" means Raw does
// not parse, and every one of them must refuse it with a usage error.
type Example struct{ Raw, Canon string }

// Examples are every example URL of RFC 1738, of its last draft
// (draft-ietf-uri-url-06) and of the draft on URIs in WWW
// (draft-bernerslee-www-uri-00), with each template of RFC 1738 §3 filled
// in, and the cases issue 12 names. The tests of the schemes package
// (the library) and of cmd/urlget (the command) run the same rows.
var Examples = []Example{
	// RFC 1738 §3.1 (and the last draft): absent ≠ empty user and password.
	{"<URL:ftp://@host.com/>", "ftp://@host.com/"},
	{"<URL:ftp://host.com/>", "ftp://host.com/"},
	{"<URL:ftp://foo:@host.com/>", "ftp://foo:@host.com/"},
	// §3.2.2: three different paths.
	{"<URL:ftp://myname@host.dom/%2Fetc/motd>", "ftp://myname@host.dom/%2Fetc/motd"},
	{"<URL:ftp://myname@host.dom/etc/motd>", "ftp://myname@host.dom/etc/motd"},
	{"<URL:ftp://myname@host.dom//etc/motd>", "ftp://myname@host.dom//etc/motd"},
	// The references of RFC 1738 and the drafts.
	{"<URL:ftp://ds.internic.net/rfc/rfc1436.txt;type=a>", "ftp://ds.internic.net/rfc/rfc1436.txt;type=a"},
	{"<URL:ftp://ds.internic.net/rfc/rfc977.txt>", "ftp://ds.internic.net/rfc/rfc977.txt"},
	{"<URL:ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z>", "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z"},
	{"<URL:ftp://quake.think.com/pub/wais/doc/doc-ids.txt>", "ftp://quake.think.com/pub/wais/doc/doc-ids.txt"},
	{"<URL:ftp://uu.psi.com/wp/nir.txt>", "ftp://uu.psi.com/wp/nir.txt"},
	{"<URL:ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt>",
		"ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt"},
	{"<URL:ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z>",
		"ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z"},
	{"<URL:ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt>",
		"ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt"},
	{"<ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol>", "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol"},
	{"<ftp://prospero.isi.edu/pub/prospero/oir.ps>", "ftp://prospero.isi.edu/pub/prospero/oir.ps"},
	{"<URL:http://www.acl.lanl.gov/URI/archive/uri-archive.index.html>",
		"http://www.acl.lanl.gov/URI/archive/uri-archive.index.html"},
	{"<URL:gopher://boombox.micro.umn.edu/11/gopher/>", "gopher://boombox.micro.umn.edu/11/gopher/"},
	{"<gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher>",
		"gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher/About%20Gopher"},
	{"<wais://quake.think.com/wais-discussion-archives?lynch>", "wais://quake.think.com/wais-discussion-archives?lynch"},
	// RFC 1738 appendix (the URLs its text wraps, joined again).
	{"<URL:ftp://info.cern.ch/pub/www/doc;type=d>", "ftp://info.cern.ch/pub/www/doc;type=d"},
	{"<URL:ftp://ds.internic.net/rfc>", "ftp://ds.internic.net/rfc"},
	{"<URL:http://ds.internic.net/instructions/overview.html#WARNING>",
		"http://ds.internic.net/instructions/overview.html#WARNING"},
	// §3.6, §3.10, §3.11.
	{"<URL:news:*>", "news:*"},
	{"<URL:file://vms.host.edu/disk$user/my/notes/note12345.txt>", "file://vms.host.edu/disk$user/my/notes/note12345.txt"},
	{"<URL:prospero://host.dom//pros/name>", "prospero://host.dom//pros/name"},
	// The draft on URIs in WWW: examples 1 and 2, and its http URLs.
	{"http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram/marie-claude"},
	{"http://info.cern.ch/albert/bertram/marie%2Dclaude", "http://info.cern.ch/albert/bertram/marie-claude"},
	{"http://info.cern.ch/albert/bertram%2Fmarie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude"},
	{"http://info.cern.ch/hypertext/WWW/Addressing/URL/URI_Overview.html",
		"http://info.cern.ch/hypertext/WWW/Addressing/URL/URI_Overview.html"},
	{"http://info.cern.ch:8000/imaginary/test", "http://info.cern.ch:8000/imaginary/test"},
	{"http://www.my.work.com/", "http://www.my.work.com/"},
	{"http://www.my.uni.edu/info/matriculation/enroling.html", "http://www.my.uni.edu/info/matriculation/enroling.html"},
	{"http://info.my.org/AboutUs/Phonebook", "http://info.my.org/AboutUs/Phonebook"},
	{"http://info.my.org/AboutUs/Index/Phonebook?dobbins", "http://info.my.org/AboutUs/Index/Phonebook?dobbins"},
	{"http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44",
		"http://www.library.my.town.va.us/Catalogue/76523471236%2Fwen44"},
	{"http://www.my.org/462F4F2D4241522A314159265358979323846", "http://www.my.org/462F4F2D4241522A314159265358979323846"},
	{"http://www.myu.edu/org/admin/people#andy", "http://www.myu.edu/org/admin/people#andy"},
	// Its example 3 and last example: not URLs ("%" starts no escape).
	{"news:12345667123%asdghfh@info.cern.ch", ""},
	{"fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred", ""},
	{"http://info.cern.ch/RDB/EMP?*%20where%20name%%3Ddobbins", ""},
	{"http://info.cern.ch/RDB/EMP?*%20where%20name%3Ddobbins", "http://info.cern.ch/RDB/EMP?*%20where%20name%3Ddobbins"},
	// Its rlogin and tn3270 forms, and mid: (a scheme urlget does not know:
	// the generic rules apply).
	{"rlogin://user@host.example", "rlogin://user@host.example/"},
	{"tn3270://host.example:23", "tn3270://host.example/"},
	{"MID:%3Cabc@def%3E", "mid:%3Cabc@def%3E"},
	// RFC 1738 §3's templates, every part given, default ports written.
	{"ftp://user:password@host:21/cwd1/cwd2/name;type=i", "ftp://user:password@host/cwd1/cwd2/name;type=i"},
	{"http://host:80/path?searchpart", "http://host/path?searchpart"},
	{"gopher://host:70/0selector%09search%09+", "gopher://host/0selector%09search%09+"},
	{"mailto:joe@example.com", "mailto:joe@example.com"},
	{"news:comp.infosystems.www.misc", "news:comp.infosystems.www.misc"},
	{"news:<unique@full_domain_name>", "news:unique@full_domain_name"},
	{"nntp://host:119/comp.infosystems.www.misc/0042", "nntp://host/comp.infosystems.www.misc/42"},
	{"telnet://user:password@host:23/", "telnet://user:password@host/"},
	{"wais://host:210/database", "wais://host/database"},
	{"wais://host:210/database?search%20words", "wais://host/database?search+words"},
	{"wais://host:210/database/TEXT/107/doc%2Did", "wais://host/database/TEXT/107/doc-id"},
	{"file://localhost/etc/motd", "file:///etc/motd"},
	{"prospero://host:1525/hsoname;OBJECT-VERSION=3", "prospero://host/hsoname;OBJECT-VERSION=3"},
	// Issue 12: one form in every command and in the library.
	{"news:<abc@def>", "news:abc@def"},
	{"news:%3Cabc@def%3E", "news:abc@def"},
	{"ftp://h/x;type=A", "ftp://h/x;type=a"},
	{"gopher://host:70/1", "gopher://host/"},
	{"gopher://host/", "gopher://host/"},
	{"gopher://host", "gopher://host/"},
	{"file://localhost/", "file:///"},
	{"file:/etc/motd", "file:///etc/motd"},
	{"HTTP://WWW.Example.COM:80/a%2db%2Fc", "http://www.example.com/a-b%2Fc"},
	{"http://h/%7e~%7E?q=%7e", "http://h/%7E%7E%7E?q=%7e"},
	{"http://[0:0:0:0:0:0:0:1]:8080/x#%7e", "http://[::1]:8080/x#%7E"},
	{"http://bücher.example", "http://xn--bcher-kva.example/"},
	{"mailto:a%2Bb@x?subject=1+1", "mailto:a+b@x?subject=1%2B1"},
	{"x-other://H:80/%7e%41#", "x-other://h:80/%7EA"},
	// Refused by the scheme's own parser, not only by the generic one.
	{"ftp://h/x;type=q", ""},
	{"gopher://user@h/", ""},
	{"file:///a%2Fb", ""},
}

// Pair is two URLs and whether `urlget same` (Registry.Equivalent) must
// call them the same; Why names the rule, as the README lists them.
type Pair struct {
	A, B string
	Same bool
	Why  string
}

// Pairs are the equivalences the canonical form applies, and the near
// misses it must not, scheme by scheme.
var Pairs = []Pair{
	{"HTTP://Info.CERN.ch/", "http://info.cern.ch/", true, "case of scheme and host (RFC 1738 §2.1, §3.1)"},
	{"<URL:http://info.cern.ch/>", "http://info.cern.ch/", true, "the <URL:> wrapper"},
	{"http://bücher.example/", "http://xn--bcher-kva.example/", true, "IDNA"},
	{"http://[::1]/", "http://[0:0:0:0:0:0:0:1]:80/", true, "IPv6 text forms, default port"},
	{"http://info.cern.ch:80/", "http://info.cern.ch/", true, "default port"},
	{"https://h:443/", "https://h/", true, "default port"},
	{"ftp://h:21/", "ftp://h/", true, "default port"},
	{"ftps://h:990/", "ftps://h/", true, "default port"},
	{"gopher://h:70/", "gopher://h/", true, "default port"},
	{"nntp://h:119/g", "nntp://h/g", true, "default port"},
	{"telnet://h:23/", "telnet://h/", true, "default port"},
	{"wais://h:210/db", "wais://h/db", true, "default port"},
	{"prospero://h:1525/x", "prospero://h/x", true, "default port"},
	{"http://info.cern.ch:8000/", "http://info.cern.ch/", false, "another port"},
	{"http://h/", "https://h:80/", false, "another scheme, even on the same port"},
	{"http://h", "http://h/", true, "empty path with or without /"},
	{"ftp://h", "ftp://h/", true, "empty path with or without /"},
	{"telnet://h", "telnet://h/", true, "the final / of a telnet URL may be omitted (§3.8)"},
	{"ftp://f%6Fo@host.com/", "ftp://foo@host.com/", true, "escapes in user and password"},
	{"ftp://foo@host.com/", "ftp://Foo@host.com/", false, "case of the user"},
	{"ftp://@host.com/", "ftp://host.com/", false, "empty user ≠ no user (§3.1)"},
	{"ftp://foo:@host.com/", "ftp://foo@host.com/", false, "empty password ≠ no password (§3.1)"},
	{"http://h/doc#intro", "http://h/doc#end", true, "fragments do not take part"},
	{"http://h/doc#", "http://h/doc", true, "a void fragment"},
	// ftp.
	{"ftp://h/x;type=A", "ftp://h/x;type=a", true, "typecode case"},
	{"ftp://h/x;TYPE=i", "ftp://h/x;type=%49", true, "typecode spelling"},
	{"ftp://h/x", "ftp://h/x;type=i", false, "a guessed type is not a typecode (§3.2.3)"},
	{"ftp://h/%41%3d%3F", "ftp://h/A=?", true, "ftp components are decoded: only / and ; are reserved"},
	{"ftp://h/a%2Fb", "ftp://h/a/b", false, "%2F is inside one CWD argument"},
	{"ftp://h/x;type=a", "ftp://h/x%3Btype=a", false, "%3B is part of the name"},
	{"ftp://myname@host.dom/%2Fetc/motd", "ftp://myname@host.dom//etc/motd", false, "CWD /etc ≠ CWD \"\", CWD etc (§3.2.2)"},
	{"ftp://myname@host.dom/etc/motd", "ftp://myname@host.dom//etc/motd", false, "CWD etc ≠ CWD \"\", CWD etc (§3.2.2)"},
	{"ftp://h/a/../b", "ftp://h/b", false, "dot segments are CWD .."},
	// gopher.
	{"gopher://host:70/1", "gopher://host/", true, "an empty gopher-path is type 1, selector \"\" (§3.4.1)"},
	{"gopher://h", "gopher://h/1", true, "an empty gopher-path is type 1, selector \"\" (§3.4.1)"},
	{"gopher://h/1/", "gopher://h/", false, "selector \"/\" ≠ selector \"\""},
	{"gopher://h/0", "gopher://h/", false, "another type"},
	{"gopher://h/0%2Fa%3Fb%3B", "gopher://h/0/a?b;", true, "no character is reserved in a gopher-path (§3.4.1)"},
	{"gopher://h/%30x", "gopher://h/0x", true, "an escaped type"},
	{"gopher://h/1sel%09%09+", "gopher://h/1sel", false, "a Gopher+ string"},
	// http.
	{"http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram/marie%2Dclaude", true,
		"the draft's example 1"},
	{"http://info.cern.ch/albert/bertram/marie-claude", "http://info.cern.ch/albert/bertram%2Fmarie-claude", false,
		"the draft's example 2"},
	{"http://h/%41%5f%30", "http://h/A_0", true, "escaped letters, digits, - and _ in an http path"},
	{"http://h/a%2f", "http://h/a%2F", true, "hex case in an http path"},
	{"http://h/%7e", "http://h/~", true, "~ is written %7E"},
	{"http://h/A", "http://h/a", false, "case of the path"},
	{"http://h/a%2Eb", "http://h/a.b", false, "an escaped . stays as written in http"},
	{"http://h/a%2Bb", "http://h/a+b", false, "sub-delimiters stay as written in http"},
	{"http://h/?x=%41", "http://h/?x=A", false, "the http search part stays as written"},
	{"http://h/p?", "http://h/p", false, "an empty search part"},
	{"http://h/a;b", "http://h/a%3Bb", false, "reserved characters"},
	// news and nntp.
	{"news:<abc@def>", "news:abc@def", true, "the <> of a message-id (§3.6)"},
	{"news:%3Cabc@def%3E", "news:abc@def", true, "the <> of a message-id (§3.6)"},
	{"news:%2A", "news:*", true, "nothing is reserved in a news URL"},
	{"news:id%40host", "news:id@host", true, "nothing is reserved in a news URL"},
	{"news:comp%2Einfosystems", "news:comp.infosystems", true, "nothing is reserved in a news URL"},
	{"news:comp.x", "news://h/comp.x", false, "a server named"},
	{"news:comp.x", "nntp://h/comp.x", false, "another scheme"},
	{"nntp://h/g/007", "nntp://h/g/7", true, "leading zeros of an article number"},
	// file.
	{"file://localhost/", "file:///", true, "localhost is the empty host (§3.10)"},
	{"file://localhost/etc/motd", "file:/etc/motd", true, "localhost is the empty host; file:/p is file:///p"},
	{"file:///a%3Bb", "file:///a;b", true, "file paths are decoded"},
	{"file://host.example/x", "file:///x", false, "another host"},
	// mailto.
	{"MAILTO:joe%40example.com", "mailto:joe@example.com", true, "addresses are decoded"},
	{"mailto:a@x?subject=1+1", "mailto:a@x?subject=1%2B1", true, "+ is a plus in a header value"},
	{"mailto:a@x?&subject=s&", "mailto:a@x?subject=s", true, "empty header fields"},
	{"mailto:a@x,b@y", "mailto:a@x%2Cb@y", false, ", separates addresses"},
	{"mailto:Joe@example.com", "mailto:joe@example.com", false, "case of an address"},
	// wais, prospero, telnet.
	{"wais://h/db?apple%20pie", "wais://h/db?apple+pie", true, "+ is a space in a wais search"},
	{"wais://h/db?a%2Bb", "wais://h/db?a+b", false, "+ is a space in a wais search"},
	{"wais://h/d%62", "wais://h/db", true, "the database is decoded"},
	{"prospero://h/%61%2Fb", "prospero://h/a/b", true, "the hsoname is decoded"},
	{"telnet://u@h/", "telnet://h/", false, "a suggested user"},
	// A scheme urlget does not know: the generic rules.
	{"x-other://h/%7e%41", "x-other://h/~A", true, "generic: unreserved escapes, unsafe characters"},
	{"x-other://h/a%2Fb", "x-other://h/a/b", false, "generic: reserved characters"},
}

// CheckCanonical checks the round-trip column of one row against r, the
// library's rule: c = canon(raw) parses, canon(c) == c, same(raw, c), and
// parse(c) is Same as parse(raw) (for a scheme r does not know, the
// generic parse). It returns c, or "" and false when raw does not parse
// (the error must then be a usage error, with t.Errorf otherwise).
func CheckCanonical(t testing.TB, r *schemes.Registry, raw string) (string, bool) {
	t.Helper()
	c, err := r.Canonical(raw)
	if err != nil {
		if kind := schemes.KindOf(err); kind != schemes.KindUsage {
			t.Errorf("Canonical(%q): %v, of kind %v; want a usage error", raw, err, kind)
		}
		return "", false
	}
	if c2, err := r.Canonical(c); err != nil || c2 != c {
		t.Errorf("Canonical(%q) = %q, whose canonical form is %q, %v: not idempotent", raw, c, c2, err)
	}
	if same, err := r.Equivalent(raw, c); err != nil || !same {
		t.Errorf("Equivalent(%q, its canonical form %q) = %v, %v", raw, c, same, err)
	}
	x, errX := r.Parse(raw)
	y, errY := r.Parse(c)
	switch {
	case schemes.KindOf(errX) == schemes.KindUnsupported:
		// The generic rules: nothing more to compare than the strings.
	case errX != nil || errY != nil:
		t.Errorf("Parse(%q): %v; Parse(%q): %v", raw, errX, c, errY)
	case x.String() != c:
		t.Errorf("Parse(%q).String() = %q, Canonical = %q", raw, x.String(), c)
	case !Same(x, y):
		t.Errorf("%q and its canonical form %q parse to different values: %+v (generic %+v) vs %+v (generic %+v)",
			raw, c, x.Fields(), *x.Generic(), y.Fields(), *y.Generic())
	}
	return c, true
}
