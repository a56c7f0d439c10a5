package gateway

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// asker is a scheme whose server asks for input (as a gemini 10 or 11
// does) for a URL without a query, with a question of kind q, and
// answers one with a query; it counts the requests that reach it.
type asker struct {
	q    schemes.QuestionKind
	seen *[]string
}

func (h asker) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	*h.seen = append(*h.seen, req.URL.String())
	_, query, _ := strings.Cut(req.URL.String(), "?")
	if query == "" && req.Prompt != nil {
		query, _ = req.Prompt(ctx, "Word? ", h.q == schemes.QuestionPassword) // as a terminal client would
	}
	if query == "" {
		return nil, &schemes.Error{Scheme: "ask", Phase: "reply", Kind: schemes.KindUsage, Part: "query", Msg: "the server asks for input",
			Form: &schemes.Form{Questions: []schemes.Question{{Kind: h.q, Prompt: "Word?"}}}}
	}
	return &schemes.Response{Body: nopCloser{strings.NewReader("answered " + query)}, Size: -1, Type: "text/plain"}, nil
}

func (h asker) Explain(*schemes.Request) ([]string, error) { return []string{"ask"}, nil }

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

// askerURL is a URL of the asker scheme: its query the words.
type askerURL struct{ resolverURL }

func (l askerURL) WithSearch(words string) (schemes.Locator, error) {
	base, _, _ := strings.Cut(l.String(), "?")
	u, err := schemes.Parse(base + "?" + schemes.Escape(words, "?#"))
	if err != nil {
		return nil, err
	}
	return askerURL{resolverURL{u}}, nil
}

// TestInputAsked: a server asking for input gets the search form on the
// page, whose words come back as the query; one asking for a secret
// (QuestionPassword: a gemini 11) gets no form — the words would be in
// the gateway's URL, its history and logs — and the page says so.
func TestInputAsked(t *testing.T) {
	for _, q := range []schemes.QuestionKind{schemes.QuestionText, schemes.QuestionPassword} {
		var seen []string
		r := mustRegistry(t, fetch.Config{})
		r.Register(schemes.Scheme{Name: "ask", Handler: asker{q, &seen}, Caps: schemes.Retrieves,
			Parse: func(u *schemes.URL) (schemes.Locator, error) { return askerURL{resolverURL{u}}, nil }})
		base := gateway(t, Options{Client: &fetch.Client{Registry: r, Prompt: func(context.Context, string, bool) (string, error) {
			t.Error("the gateway asked at a terminal")
			return "x", nil
		}}})
		resp, body := get(t, newRequest(t, "GET", base+Address("ask://127.0.0.1/find")))
		form := strings.Contains(body, `<form class="search"`)
		switch {
		case q == schemes.QuestionText && (resp.StatusCode != http.StatusOK || !form):
			t.Errorf("input: %d, form %v:\n%s", resp.StatusCode, form, body)
		case q == schemes.QuestionPassword && (resp.StatusCode == http.StatusOK || form || !strings.Contains(body, "asks for no secret")):
			t.Errorf("a secret: %d, form %v:\n%s", resp.StatusCode, form, body)
		}
		if len(seen) != 1 {
			t.Errorf("%s: %d requests upstream, want 1: %q", q, len(seen), seen)
		}
		if q != schemes.QuestionText {
			continue
		}
		resp, _ = get(t, newRequest(t, "GET", base+"/search?url="+url.QueryEscape("ask://127.0.0.1/find")+"&q=two+words"))
		to := resp.Header.Get("Location")
		if resp, body = get(t, newRequest(t, "GET", base+to)); resp.StatusCode != http.StatusOK || body != "answered two%20words" {
			t.Errorf("the form's words, by way of %q: %d %q", to, resp.StatusCode, body)
		}
	}
}
