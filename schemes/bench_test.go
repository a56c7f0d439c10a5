package schemes

import "testing"

// benchURLs is a realistic mix: ftp with user, password and typecode, http
// with a query, gopher with %09, news, mailto, IPv6, an upper-case one that
// Canonical must rewrite, and a wrapped one.
var benchURLs = []string{
	"ftp://anonymous:guest%40example.org@ftp.example.com/pub/gnu/emacs-29.1.tar.gz;type=i",
	"ftp://ftp.example.com/pub/README;type=a",
	"http://www.example.com/search/index.html?q=rfc+1738&lang=en",
	"http://info.cern.ch/hypertext/WWW/Addressing/URL/URI_Overview.html#fragment",
	"gopher://gopher.example.edu:70/7/search%09fish%20and%20chips",
	"news:comp.infosystems.www.authoring.html",
	"news:12345@info.cern.ch",
	"mailto:joe.bloggs@example.com",
	"http://[2001:db8::1]:8080/status",
	"HTTP://WWW.Example.COM:80/%7euser/a%2db/",
	"<URL:wais://wais.example.com:210/database?query>",
	"telnet://user@host.example.net/",
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Parse(benchURLs[i%len(benchURLs)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCanonical(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Canonical(benchURLs[i%len(benchURLs)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEquivalent(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		u := benchURLs[i%len(benchURLs)]
		if _, err := Equivalent(u, u); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResolve(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r := resolveTests[i%len(resolveTests)]
		if _, err := Resolve(r.base, r.ref); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExtract(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Extract(appendixExample)
	}
}
