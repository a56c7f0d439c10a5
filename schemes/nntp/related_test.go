package nntp

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// related parses base as the registry would, news or nntp alike.
func related(t *testing.T, base string) schemes.ArticleLinker {
	t.Helper()
	return locate(t, base).(schemes.ArticleLinker)
}

func TestMessageLocator(t *testing.T) {
	tests := []struct {
		base, id string
		want     string // the Locator's String
		back     string // its MessageID parsed back: the id without "<" ">"
	}{
		{"news:local.test", "<lf-dots@urlget.test>", "news:lf-dots@urlget.test", "lf-dots@urlget.test"},
		{"news:other@id", "bare@urlget.test", "news:bare@urlget.test", "bare@urlget.test"},
		{"news:*", "<a%b/c?d#e@host>", "news:a%25b/c?d%23e@host", "a%b/c?d#e@host"},
		{"news:local.test", "</leading@slash>", "news:%2Fleading@slash", "/leading@slash"},
		{"news:local.test", "<//two@slashes>", "news:%2F/two@slashes", "//two@slashes"},
		{"news:local.test", "<j\"q'@x>", "news:j%22q'@x", "j\"q'@x"},
		{"news:local.test", "<a@b@c>", "news:a@b@c", "a@b@c"},
		{"news:local.test", "<x@[127.0.0.1]>", "news:x@%5B127.0.0.1%5D", "x@[127.0.0.1]"},
		{"news:local.test", "<caf\u00e9@x>", "news:caf%C3%A9@x", "caf\u00e9@x"},
		// A server named keeps its port, user and password.
		{"news://127.0.0.1:1119/local.test", "<a/b?c@h>", "news://127.0.0.1:1119/a/b?c@h", "a/b?c@h"},
		{"news://u:p%40ss@h.example/x@y", "<id@h>", "news://u:p%40ss@h.example/id@h", "id@h"},
		{"nntp://127.0.0.1:1119/local.test/1", "<lf-dots@urlget.test>", "news://127.0.0.1:1119/lf-dots@urlget.test", "lf-dots@urlget.test"},
		{"nntp://reader:s3cret@[::1]/local.test", "<%@?>", "news://reader:s3cret@[::1]/%25@?", "%@?"},
		{"nntp://h.example/g/1", "<p%2Fq@r>", "news://h.example/p%252Fq@r", "p%2Fq@r"},
	}
	for _, tt := range tests {
		t.Run(tt.base+" "+tt.id, func(t *testing.T) {
			loc, err := related(t, tt.base).MessageLocator(tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if s := loc.String(); s != tt.want {
				t.Errorf("String() = %q, want %q", s, tt.want)
			}
			n, ok := schemestest.RoundTrip(t, loc.(*NewsURL), parseNews)
			if !ok {
				return
			}
			if n.MessageID == nil || *n.MessageID != tt.back {
				t.Errorf("parsed back: message-id %v, want %q", n.Fields(), tt.back)
			}
		})
	}
}

func TestMessageLocatorRefused(t *testing.T) {
	tests := []struct {
		base, id string
		kind     schemes.Kind
	}{
		{"news:local.test", "", schemes.KindUsage},
		{"news:local.test", "<>", schemes.KindUsage},
		{"news:local.test", "<no-at>", schemes.KindUsage},
		{"news:local.test", "<@host>", schemes.KindUsage},
		{"news:local.test", "<left@>", schemes.KindUsage},
		{"news:local.test", "<a b@c>", schemes.KindUsage},
		{"news:local.test", "<a\r\nQUIT@c>", schemes.KindUsage},
		{"news:local.test", "<a\x00@c>", schemes.KindUsage},
		{"news:local.test", "<a<b@c>", schemes.KindUsage},
		{"news:local.test", "<<a@c>>", schemes.KindUsage},
		{"nntp://h.example/g/1", "<a\tb@c>", schemes.KindUsage},
		// No URL names a message-id over TLS from the start.
		{"nntps://h.example/g/1", "<a@b>", schemes.KindUnsupported},
	}
	for _, tt := range tests {
		loc, err := related(t, tt.base).MessageLocator(tt.id)
		if err == nil || loc != nil || schemes.KindOf(err) != tt.kind {
			t.Errorf("%s: MessageLocator(%q) = %v, %v; want a %v error", tt.base, tt.id, loc, err, tt.kind)
		}
	}
}

func TestGroupLocator(t *testing.T) {
	tests := []struct {
		base, group string
		want        string // "" when refused
	}{
		{"news:lf-dots@urlget.test", "local.test", "news:local.test"},
		{"news:*", "comp.lang.c++", "news:comp.lang.c++"},
		{"news://127.0.0.1:1119/x@y", "local.misc", "news://127.0.0.1:1119/local.misc"},
		{"nntp://127.0.0.1:1119/local.test/1", "comp.infosystems.www.misc", "nntp://127.0.0.1:1119/comp.infosystems.www.misc"},
		{"nntp://u:p@h.example/", "a-b_c.D+e", "nntp://u:p@h.example/a-b_c.D+e"},
		{"nntps://h.example/g/1", "local.test", "nntps://h.example/local.test"},
		{"nntps://h.example:119/g", "local.test", "nntps://h.example:119/local.test"},
		{"news:x@y", "poster", ""},
		{"news:x@y", "", ""},
		{"news:x@y", "1group", ""},
		{"news:x@y", "a b", ""},
		{"news:x@y", "a/b", ""},
		{"nntp://h/g", "<script>", ""},
		{"nntp://h/g", "javascript:alert(1)", ""},
	}
	for _, tt := range tests {
		loc, err := related(t, tt.base).GroupLocator(tt.group)
		if tt.want == "" {
			if err == nil || schemes.KindOf(err) != schemes.KindUsage {
				t.Errorf("%s: GroupLocator(%q) = %v, %v; want a usage error", tt.base, tt.group, loc, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: GroupLocator(%q): %v", tt.base, tt.group, err)
			continue
		}
		if s := loc.String(); s != tt.want {
			t.Errorf("%s: GroupLocator(%q) = %q, want %q", tt.base, tt.group, s, tt.want)
		}
		// It parses back to the same group, in the scheme it has.
		switch x := loc.(type) {
		case *NewsURL:
			if n, ok := schemestest.RoundTrip(t, x, parseNews); ok && (n.Group == nil || *n.Group != tt.group) {
				t.Errorf("%s parsed back: %v", loc, n.Fields())
			}
		case *URL:
			if n, ok := schemestest.RoundTrip(t, x, parseNNTP); ok && n.Group != tt.group {
				t.Errorf("%s parsed back: %v", loc, n.Fields())
			}
		}
	}
}
