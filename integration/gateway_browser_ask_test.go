//go:build integration

package integration

import (
	"net/http"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/browser"
	"github.com/urlget/urlget/integration/testbed"
)

// TestBrowserGatewayGopherPlusForm: our Gopher+ server's +ASK item opens,
// from its menu, at an HTML form of its questions; filled in and
// submitted, the server's reply shows the answers it received.
func TestBrowserGatewayGopherPlusForm(t *testing.T) {
	testbed.Require(t, testbed.GopherPlus)
	base := browserGateway(t)
	b := browser.Start(t)
	gatewayPage(t, b, base, "gopher://"+testbed.Addr(testbed.GopherPlusPort)+"/1/plus")
	if st := b.ClickHref(entryLink(t, b, "A form (+ASK)").Href); st != http.StatusOK {
		t.Fatalf("the form: status %d: %s", st, b.Text("body"))
	}
	b.NoScriptRan()
	form := b.Text("#ask")
	for _, want := range []string{"What is your name?", "Password?", "Favourite protocol?", "Comments?", "Subscribe?", "Thank you for testing."} {
		if !strings.Contains(form, want) {
			t.Errorf("the form at %s lacks %q: %q", b.URL(), want, form)
		}
	}
	b.Fill(`#ask [name="a1"]`, "Ada Lovelace")
	b.Fill(`#ask input[type="password"]`, "pw-typed")
	b.Fill(`#ask select`, "ftp")
	b.Fill(`#ask textarea`, "first line\nsecond line")
	b.Toggle(`#ask input[type="checkbox"]`) // checked by default
	if st := b.Click("#ask button"); st != http.StatusOK {
		t.Fatalf("submitting the form: status %d: %s", st, b.Text("body"))
	}
	// The server echoes what it received: one line an answer, the
	// comments as their count and lines.
	want := "Thanks, Ada Lovelace. Your answers:\n1: Ada Lovelace\n2: pw-typed\n3: ftp\n4: 2\n5: first line\n6: second line\n7: 0\n"
	if got := b.Text("body"); got != want {
		t.Errorf("the reply at %s is %q, want %q", b.URL(), got, want)
	}
	b.NoScriptRan()
}
