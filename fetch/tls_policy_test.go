package fetch

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// tlsRecorder records each request it is given and whether it was told
// to require TLS, and redirects per its map.
type tlsRecorder struct {
	redirects map[string]string
	mu        sync.Mutex
	got       []string // "URL require=true"
}

func (h *tlsRecorder) Fetch(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.mu.Lock()
	h.got = append(h.got, req.URL.String()+" require="+map[bool]string{true: "true", false: "false"}[req.RequireTLS])
	h.mu.Unlock()
	if to, ok := h.redirects[req.URL.String()]; ok {
		return &schemes.Response{Redirect: to, Status: 302}, nil
	}
	return &schemes.Response{Body: io.NopCloser(strings.NewReader("ok")), Size: 2}, nil
}

func (h *tlsRecorder) Explain(*schemes.Request) ([]string, error) { return []string{"plan"}, nil }

// TestRequireTLSByCaps: with RequireTLS (--ssl-reqd) a scheme that claims
// TLS is asked for it on the Request, a Local one has no connection to
// protect, and any other is refused before its handler runs (so before
// any dial) — for the URL given, a redirect, and a plan alike.
func TestRequireTLSByCaps(t *testing.T) {
	tests := []struct {
		name    string
		caps    schemes.Caps
		require bool
		url     string
		want    string // what the handler saw; "" refused
	}{
		{"tls scheme", schemes.Retrieves | schemes.TLS, true, "s:x", "s:x require=true"},
		{"clear-text scheme refused", schemes.Retrieves, true, "s:x", ""},
		{"local scheme", schemes.Retrieves | schemes.Local, true, "s:x", "s:x require=true"},
		{"encrypted scheme", schemes.Retrieves | schemes.Encrypted, true, "s:x", "s:x require=true"},
		{"not required", schemes.Retrieves, false, "s:x", "s:x require=false"},
		{"redirect to a clear-text scheme refused", schemes.Retrieves | schemes.RedirectTarget, true, "t:to-s", "t:to-s require=true"},
		{"redirect allowed without the requirement", schemes.Retrieves | schemes.RedirectTarget, false, "t:to-s", "t:to-s require=false s:x require=false"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &tlsRecorder{redirects: map[string]string{"t:to-s": "s:x"}}
			c := &Client{Registry: schemes.NewRegistry(), RequireTLS: tc.require}
			policyScheme(c, "s", tc.caps, h)
			policyScheme(c, "t", schemes.Retrieves|schemes.TLS, h)
			resp, err := c.Get(context.Background(), tc.url)
			refused := tc.want == "" || strings.HasSuffix(tc.name, "refused")
			if !refused {
				if err != nil {
					t.Fatal(err)
				}
				resp.Close()
			} else if schemes.KindOf(err) != schemes.KindSafety || settingOf(err) != SettingRequireTLS ||
				!strings.Contains(err.Error(), "s: URLs cannot use it (schemes that can: t)") {
				t.Fatalf("err = %v, want a safety refusal naming RequireTLS and the schemes that can", err)
			}
			if got := strings.Join(h.got, " "); got != tc.want {
				t.Errorf("handler saw %q, want %q", got, tc.want)
			}
		})
	}
	c := &Client{Registry: schemes.NewRegistry(), RequireTLS: true}
	policyScheme(c, "s", schemes.Retrieves, &tlsRecorder{})
	if _, err := c.Explain("s:x"); schemes.KindOf(err) != schemes.KindSafety {
		t.Errorf("Explain: %v, want the same refusal", err)
	}
}

// TestRequireTLSEncrypted: with RequireTLS an Encrypted scheme (sftp:
// SSH, no TLS) is fetched, and named among the schemes a refusal
// points to.
func TestRequireTLSEncrypted(t *testing.T) {
	h := &tlsRecorder{}
	c := &Client{Registry: schemes.NewRegistry(), RequireTLS: true}
	policyScheme(c, "e", schemes.Retrieves|schemes.Encrypted, h)
	policyScheme(c, "s", schemes.Retrieves, h)
	policyScheme(c, "t", schemes.Retrieves|schemes.TLS, h)
	resp, err := c.Get(context.Background(), "e:x")
	if err != nil {
		t.Fatalf("an encrypted scheme under RequireTLS: %v", err)
	}
	resp.Close()
	_, err = c.Get(context.Background(), "s:x")
	if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), "(schemes that can: e,t)") {
		t.Errorf("err = %v, want a safety refusal naming e and t", err)
	}
	if got := strings.Join(h.got, " "); got != "e:x require=true" {
		t.Errorf("handler saw %q, want only e:x", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Register accepted a local scheme that claims encrypted")
		}
	}()
	policyScheme(c, "l", schemes.Retrieves|schemes.Encrypted|schemes.Local, h)
}
