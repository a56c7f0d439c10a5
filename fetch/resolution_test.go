package fetch

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestResolutionPolicy: a resolution (Prospero's) is the URL's own access
// method, so RedirectProtocols do not limit it, but the caller's
// Protocols do and CheckRedirect is asked about it — a gateway refuses
// one back to itself — and a refusal reaches nothing.
func TestResolutionPolicy(t *testing.T) {
	file := filepath.Join(t.TempDir(), "local")
	os.WriteFile(file, []byte("local"), 0o600)
	fileURL := "file://" + filepath.ToSlash(file)
	errNo := errors.New("not there")
	for _, tc := range []struct {
		name   string
		to     string
		set    func(c *Client)
		want   string // the body read, "" for a refusal
		reason string // in the refusal
	}{
		{"followed", "rt://h/there", func(c *Client) {}, "there", ""},
		{"redirect protocols do not apply", "rt://h/there", func(c *Client) { c.RedirectProtocols = Protocols{} }, "there", ""},
		{"protocols naming the target", fileURL, func(c *Client) { c.Protocols = Protocols{"rt": true, "file": true} }, "local", ""},
		{"protocols without the target", fileURL, func(c *Client) { c.Protocols = Protocols{"rt": true} }, "", "(allowed: rt)"},
		{"check redirect asked", "rt://h/there", func(c *Client) {
			c.CheckRedirect = func(from, to schemes.Locator, n int) error {
				if to.Generic().Path == "there" && from.Generic().Path == "resolved" && n == 0 {
					return errNo
				}
				return nil
			}
		}, "", "not there"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reached atomic.Int32
			cl, _ := rtClient(schemes.Retrieves, func(req *schemes.Request) (*schemes.Response, error) {
				if req.URL.Generic().Path == "resolved" {
					return &schemes.Response{Resolved: &schemes.Resolution{URL: tc.to, Chain: []string{"rt://h/resolved"}}, Size: -1}, nil
				}
				reached.Add(1)
				return &schemes.Response{Body: body("there"), Size: 5}, nil
			})
			tc.set(cl)
			resp, err := cl.Get(context.Background(), "rt://h/resolved")
			if tc.want == "" {
				if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), tc.reason) {
					t.Fatalf("err = %v, want a safety refusal saying %q", err, tc.reason)
				}
				if reached.Load() != 0 {
					t.Error("the refused target was fetched")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(resp.Body)
			resp.Close()
			if err != nil || string(b) != tc.want {
				t.Errorf("read %q (%v), want %q", b, err, tc.want)
			}
		})
	}
}
