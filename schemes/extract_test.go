package schemes

import (
	"reflect"
	"strings"
	"testing"
)

// appendixExample is the example paragraph of RFC 1738's appendix, exactly.
const appendixExample = `      Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
      type=d> but you can probably pick it up from <URL:ftp://ds.in
      ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.
      net/instructions/overview.html#WARNING>.
`

var extractTests = []struct {
	name, text string
	want       []string
}{
	{"appendix example", appendixExample, []string{
		"ftp://info.cern.ch/pub/www/doc;type=d",
		"ftp://ds.internic.net/rfc",
		"http://ds.internic.net/instructions/overview.html#WARNING",
	}},
	{"appendix example with CRLF", strings.ReplaceAll(appendixExample, "\n", "\r\n"), []string{
		"ftp://info.cern.ch/pub/www/doc;type=d",
		"ftp://ds.internic.net/rfc",
		"http://ds.internic.net/instructions/overview.html#WARNING",
	}},
	{"wrapper, any case", "see <url:ftp://h/x> and <Url: news:a.b >", []string{"ftp://h/x", "news:a.b"}},
	{"wrapper split after URL:", "<URL:\n   http://h/a>", []string{"http://h/a"}},
	// The hyphen rule: whitespace around the break ignored, hyphen kept.
	{"hyphen at line break", "<URL:ftp://ds.in-\n      ternic.net/rfc>", []string{"ftp://ds.in-ternic.net/rfc"}},
	{"hyphen, spaces before break", "<URL:http://h/marie-  \n\tclaude>", []string{"http://h/marie-claude"}},
	{"hyphen, bare URL", "see http://info.cern.ch/albert/bertram/marie-\n   claude for more", []string{"http://info.cern.ch/albert/bertram/marie-claude"}},
	{"hyphen, bare, then punctuation", "at http://h/a-\nb.", []string{"http://h/a-b"}},
	{"hyphen, bare, paragraph break", "at http://h/a-\n\nNext", []string{"http://h/a-"}},
	{"hyphen, bare, space not a break", "at http://h/a- b", []string{"http://h/a-"}},
	// <scheme:...> without URL:.
	{"draft-style wrapper", "<ftp://quake.think.com/pub/wa\n  is/doc/protspec.txt>", []string{"ftp://quake.think.com/pub/wais/doc/protspec.txt"}},
	{"draft-style wrapper, break after colon", "<ftp:\n //quake.think.com/pub/wais/doc/doc-ids.txt>", []string{"ftp://quake.think.com/pub/wais/doc/doc-ids.txt"}},
	{"wrapper, other scheme", "cf. <mid:1234@cern.ch> here", []string{"mid:1234@cern.ch"}},
	{"wrapper, other scheme with space is prose", "<note: see below> and <x-a:b c>", nil},
	{"mail address is no URL", "From: Tim <timbl@info.cern.ch>", nil},
	{"html tag", `<a href="http://h/x">x</a>`, []string{"http://h/x"}},
	{"unclosed wrapper", "<URL:http://h/a and more text", []string{"http://h/a"}},
	{"wrapper across paragraph", "<URL:http://h/a\n\n  b>", []string{"http://h/a"}},
	{"empty wrapper", "<URL:> <> <http:>", nil},
	{"nested", "<<URL:http://h/>>", []string{"http://h/"}},
	{"comparison is not a wrapper", "if a<b and c>d then http://h/", []string{"http://h/"}},
	// Bare URLs.
	{"bare URLs", "Get ftp://ftp.x.org/pub/README, or http://www.x.org/?q=1; then gopher://g.umn.edu/11/Other%09x.",
		[]string{"ftp://ftp.x.org/pub/README", "http://www.x.org/?q=1", "gopher://g.umn.edu/11/Other%09x"}},
	{"all known schemes", "ftp://a http://b https://c gopher://d mailto:e@f news:g nntp://h/i telnet://j wais://k/l file:///m prospero://n/o",
		[]string{"ftp://a", "http://b", "https://c", "gopher://d", "mailto:e@f", "news:g", "nntp://h/i", "telnet://j", "wais://k/l", "file:///m", "prospero://n/o"}},
	{"case", "HTTP://H/ and Mailto:x@y", []string{"HTTP://H/", "Mailto:x@y"}},
	{"unknown bare scheme ignored", "irc://x sftp://y xhttp://z", nil},
	{"parentheses", "(see http://h/a) and http://h/wiki/Foo_(bar) and (http://h/b_(c))", []string{"http://h/a", "http://h/wiki/Foo_(bar)", "http://h/b_(c)"}},
	{"brackets", "[http://h/a] and http://[::1]:8080/x.", []string{"http://h/a", "http://[::1]:8080/x"}},
	{"quotes", `"http://h/a" 'http://h/b' “http://h/c” ‘http://h/d’ 'http://h/it's'`, []string{"http://h/a", "http://h/b", "http://h/c", "http://h/d", "http://h/it's"}},
	{"trailing punctuation", "http://h/a. http://h/b, http://h/c; http://h/d: http://h/e! http://h/f? http://h/g?!.", []string{"http://h/a", "http://h/b", "http://h/c", "http://h/d", "http://h/e", "http://h/f", "http://h/g"}},
	{"typecode kept", "ftp://h/doc;type=d.", []string{"ftp://h/doc;type=d"}},
	{"fragment kept", "http://h/doc#sec-2.", []string{"http://h/doc#sec-2"}},
	{"scheme alone", "the http: scheme, http:// and ftp:/ too, mailto:.", nil},
	{"URL: prefix without wrapper", "URL:http://h/x", []string{"http://h/x"}},
	{"IDNA host", "http://bücher.example/。", []string{"http://bücher.example/"}},
	{"backticks", "`http://h/x`", []string{"http://h/x"}},
	{"news", "Post to news:comp.infosystems.www, please.", []string{"news:comp.infosystems.www"}},
	{"mixed order", "http://a/ <URL:ftp://b/> mailto:c@d <gopher://e/>", []string{"http://a/", "ftp://b/", "mailto:c@d", "gopher://e/"}},
	{"nothing", "no URLs here: just text.", nil},
	{"empty", "", nil},
}

func TestExtract(t *testing.T) {
	for _, tt := range extractTests {
		got := Extract(tt.text)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Extract(%q) = %q, want %q", tt.name, tt.text, got, tt.want)
		}
	}
}

func TestExtractMatches(t *testing.T) {
	text := "x <URL:ftp://ds.in-\n  ternic.net/rfc> y http://h/marie-\n claude. z <URL:http://h/a>"
	got := ExtractMatches(text)
	want := []Match{
		{URL: "ftp://ds.in-ternic.net/rfc", Alt: "ftp://ds.internic.net/rfc", Start: 2, End: 37},
		{URL: "http://h/marie-claude", Alt: "http://h/marieclaude", Start: 40, End: 63},
		{URL: "http://h/a", Start: 67, End: 83},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ExtractMatches = %+v\nwant %+v", got, want)
	}
	for _, m := range got {
		if s := text[m.Start:m.End]; !strings.HasSuffix(strings.TrimSuffix(s, ">"), m.URL[len(m.URL)-3:]) {
			t.Errorf("text[%d:%d] = %q does not end the URL %q", m.Start, m.End, s, m.URL)
		}
	}
}

func FuzzExtract(f *testing.F) {
	for _, tt := range extractTests {
		f.Add(tt.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prev := 0
		for _, m := range ExtractMatches(text) {
			if m.Start < prev || m.End <= m.Start || m.End > len(text) {
				t.Fatalf("bad offsets %d:%d (previous end %d) in %q", m.Start, m.End, prev, text)
			}
			if m.URL == "" {
				t.Fatalf("empty URL in %q", text)
			}
			if span := text[m.Start:m.End]; span[0] != '<' && m.Alt == "" && m.URL != span {
				t.Fatalf("bare URL %q is not the text it came from, %q", m.URL, span)
			}
			if strings.ContainsAny(m.URL, " \t\r\n") {
				t.Fatalf("URL %q holds whitespace", m.URL)
			}
			prev = m.End
		}
	})
}
