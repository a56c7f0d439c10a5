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

// postForm posts form to url as a browser posts a form, with token
// (none when "") and Sec-Fetch-Site: site (none when "").
func postForm(t *testing.T, url string, form url.Values, token, site string) (*http.Response, string) {
	t.Helper()
	if token != "" {
		form.Set("token", token)
	}
	req, err := http.NewRequest("POST", url, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if site != "" {
		req.Header.Set("Sec-Fetch-Site", site)
	}
	return get(t, req)
}

// TestSend: a mailto: URL is a link unless the gateway may send; then a
// GET shows a form and sends nothing, and only a POST of that form, with
// its token and from the same origin, sends (here a dry run, whose
// composed message comes back).
func TestSend(t *testing.T) {
	client := &fetch.Client{Registry: mustRegistry(t, fetch.Config{Override: mailto.Schemes(
		&mailto.Handler{DryRun: true, From: "gw@127.0.0.1", Stdin: strings.NewReader("STDIN")})})}
	const to = "mailto:someone@127.0.0.1?subject=ignored"
	post := func(base, token, site string) (*http.Response, string) {
		return postForm(t, base+Address(to), url.Values{"subject": {"Hello <there>"}, "body": {"line one"}}, token, site)
	}

	off := gateway(t, Options{Client: client})
	resp, body := get(t, newRequest(t, "GET", off+Address(to)))
	if resp.StatusCode != 200 || strings.Contains(body, "<form id=\"compose\"") || !strings.Contains(body, `href="mailto:someone@127.0.0.1?subject=ignored"`) {
		t.Errorf("without AllowSend: %d %s", resp.StatusCode, body)
	}
	if resp, body := post(off, "x", ""); resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "start it with AllowSend") {
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

// TestComposePrefilled: the compose form starts from the message the
// mailto: URL describes — its recipients shown, its subject and body in
// the fields, escaped whatever they hold — and a POST sends what the form
// posted, not the URL's own subject and body.
func TestComposePrefilled(t *testing.T) {
	client := &fetch.Client{Registry: mustRegistry(t, fetch.Config{Override: mailto.Schemes(
		&mailto.Handler{DryRun: true, From: "gw@127.0.0.1", Stdin: strings.NewReader("STDIN")})})}
	const to = `mailto:a@127.0.0.1?cc=b@127.0.0.1&subject=%22%3E%3Cscript%3Ealert(1)%3C/script%3E&body=Dear%20%3C/textarea%3E%3Cscript%3Ex()%3C/script%3E%0Aline%202`
	on := gateway(t, Options{Client: client, AllowSend: true})
	resp, body := get(t, newRequest(t, "GET", on+Address(to)))
	if resp.StatusCode != 200 {
		t.Fatalf("GET: %d %s", resp.StatusCode, body)
	}
	for _, want := range []string{
		`<dt>To</dt><dd>a@127.0.0.1</dd><dt>Cc</dt><dd>b@127.0.0.1</dd>`,
		`<input name="subject" size="60" value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">`,
		"<textarea name=\"body\" rows=\"12\" cols=\"72\">Dear &lt;/textarea&gt;&lt;script&gt;x()&lt;/script&gt;\nline 2</textarea>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the form lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<script") {
		t.Errorf("a script from the URL is on the page:\n%s", body)
	}
	token := regexp.MustCompile(`name="token" value="([0-9a-f]+)"`).FindStringSubmatch(body)
	if token == nil {
		t.Fatalf("no token:\n%s", body)
	}
	resp, body = postForm(t, on+Address(to), url.Values{"subject": {"Edited"}, "body": {"what the form posted"}}, token[1], "same-origin")
	_, msg, _ := strings.Cut(body, "<pre>")
	if resp.StatusCode != 200 || !strings.Contains(msg, "Subject: Edited\n") || !strings.HasSuffix(msg, "\n\nwhat the form posted\n</pre></body></html>\n") ||
		!strings.Contains(msg, "Cc: b@127.0.0.1\n") || strings.Contains(msg, "script") || strings.Contains(msg, "Dear") {
		t.Errorf("POST: %d %s", resp.StatusCode, body)
	}
}
