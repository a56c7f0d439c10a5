package gateway

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// ambientRecorder records whether its requests allowed ambient
// credentials.
type ambientRecorder struct{ allowed, refused atomic.Int32 }

func (h *ambientRecorder) Fetch(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	if req.NoAmbientCredentials {
		h.refused.Add(1)
	} else {
		h.allowed.Add(1)
	}
	return &schemes.Response{Body: io.NopCloser(strings.NewReader("ok")), Size: 2}, nil
}

func (h *ambientRecorder) Explain(*schemes.Request) ([]string, error) { return []string{"record"}, nil }

// TestNoAmbientCredentials: the gateway retrieves with no ambient
// credentials (the operator's SSH agent and keys are not its visitors'),
// and leaves the caller's Client as it was.
func TestNoAmbientCredentials(t *testing.T) {
	r := mustRegistry(t, fetch.Config{})
	h := &ambientRecorder{}
	r.Register(schemes.Scheme{Name: "amb", Handler: h, Caps: schemes.Retrieves,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return resolverURL{u}, nil }})
	c := &fetch.Client{Registry: r}
	base := gateway(t, Options{Client: c})
	resp, body := get(t, newRequest(t, "GET", base+Address("amb://127.0.0.1/x")))
	if resp.StatusCode != http.StatusOK || body != "ok" {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	if h.refused.Load() == 0 || h.allowed.Load() != 0 {
		t.Errorf("requests with ambient credentials allowed: %d, refused: %d; want none allowed",
			h.allowed.Load(), h.refused.Load())
	}
	if c.NoAmbientCredentials {
		t.Error("the caller's Client was changed")
	}
}
