package gateway

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes/mailto"
)

// TestSend: a mailto: URL is a link unless the gateway may send; then a
// GET shows a form and sends nothing, and only a POST of that form, with
// its token and from the same origin, sends (here a dry run, whose
// composed message comes back).
func TestSend(t *testing.T) {
	client := &fetch.Client{Registry: fetch.NewRegistry(fetch.Config{
		Mailto: &mailto.Handler{DryRun: true, From: "gw@127.0.0.1", Stdin: strings.NewReader("STDIN")}})}
	const to = "mailto:someone@127.0.0.1?subject=ignored"
	post := func(base, token, site string) (*http.Response, string) {
		form := url.Values{"subject": {"Hello <there>"}, "body": {"line one"}}
		if token != "" {
			form.Set("token", token)
		}
		req, err := http.NewRequest("POST", base+Address(to), strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		return get(t, req)
	}

	off := gateway(t, Options{Client: client})
	resp, body := get(t, newRequest(t, "GET", off+Address(to)))
	if resp.StatusCode != 200 || strings.Contains(body, "<form id=\"compose\"") || !strings.Contains(body, `href="mailto:someone@127.0.0.1?subject=ignored"`) {
		t.Errorf("without AllowSend: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(off, "x", ""); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "--allow-send") {
		t.Errorf("POST without AllowSend: %d %s", resp.StatusCode, body)
	}

	on := gateway(t, Options{Client: client, AllowSend: true})
	resp, body = get(t, newRequest(t, "GET", on+Address(to)))
	m := regexp.MustCompile(`name="token" value="([0-9a-f]+)"`).FindStringSubmatch(body)
	if resp.StatusCode != 200 || m == nil || strings.Contains(body, "Sent.") {
		t.Fatalf("GET with AllowSend: %d %s", resp.StatusCode, body)
	}
	token := m[1]
	for _, c := range []struct {
		token, site string
		want        int
	}{
		{"", "", http.StatusForbidden},
		{strings.Repeat("0", 64), "", http.StatusForbidden},
		{token, "cross-site", http.StatusForbidden},
	} {
		if resp, body := post(on, c.token, c.site); resp.StatusCode != c.want || strings.Contains(body, "Sent.") {
			t.Errorf("POST token %q site %q: %d %s", c.token, c.site, resp.StatusCode, body)
		}
	}
	resp, body = post(on, token, "same-origin")
	if resp.StatusCode != 200 || !strings.Contains(body, `<p id="sent">Sent.</p>`) ||
		!strings.Contains(body, "Subject: Hello &lt;there&gt;") || !strings.Contains(body, "line one") || strings.Contains(body, "STDIN") {
		t.Errorf("POST with the token: %d %s", resp.StatusCode, body)
	}
	// The token of one gateway is no good at another.
	other := gateway(t, Options{Client: client, AllowSend: true})
	if resp, _ := post(other, token, "same-origin"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another gateway's token: %d", resp.StatusCode)
	}
}
