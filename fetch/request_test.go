package fetch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// TestDoCarriesTheRequest: what a Request asks reaches the handler (the
// offset a range starts at), redirects are followed from its URL, and the
// Client never changes the Request, so that it can be done again.
func TestDoCarriesTheRequest(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"b": "0123456789"}, redirects: map[string]string{"a": "t:b"}}
	c := newClient(h)
	req, err := c.NewRequest(MethodGet, "t:a")
	if err != nil {
		t.Fatal(err)
	}
	req.Offset = 4
	before := *req
	before.Next = slices.Clone(req.Next)
	for range 2 {
		resp, err := c.Do(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Close()
		if string(b) != "456789" || resp.Offset != 4 || resp.URL.String() != "t:b" || resp.Redirects != 1 {
			t.Fatalf("got %q at %d from %s after %d redirects", b, resp.Offset, resp.URL, resp.Redirects)
		}
	}
	if !reflect.DeepEqual(*req, before) {
		t.Fatalf("the Request changed: %+v, was %+v", *req, before)
	}
	if want := []int64{4, 4, 4, 4}; !slices.Equal(h.offsets, want) {
		t.Fatalf("offsets asked %v, want %v (each hop of both calls from byte 4)", h.offsets, want)
	}
}

// TestDoMethodsNeedTheirCaps: a method a scheme cannot do fails before
// anything is asked, naming the scheme, as KindUnsupported.
func TestDoMethodsNeedTheirCaps(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"x": "data"}}
	c := newClient(h) // Retrieves and Resumes: no Lists, no Stats
	for _, m := range []Method{MethodList, MethodStat} {
		_, err := c.Do(context.Background(), &Request{Method: m, URL: mustParse(t, c, "t:x")})
		if schemes.KindOf(err) != schemes.KindUnsupported {
			t.Errorf("%s: err %v, want KindUnsupported", m, err)
		}
	}
	if h.fetches != 0 {
		t.Fatalf("%d fetches for methods the scheme cannot do", h.fetches)
	}
}

// TestTransfersStartAtZero: Download and Stream decide where to continue
// themselves (the file held, the bytes written), so a Request that brings
// a partial copy of its own, or asks for a listing or a stat, is the
// caller's mistake. (An Offset alone is a byte range: ranges_test.go.)
func TestTransfersStartAtZero(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"x": "data"}}
	c := newClient(h)
	loc := mustParse(t, c, "t:x")
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"partial", Request{URL: loc, Partial: schemes.Partial{Record: &schemes.ResumeRecord{Size: 4}}}},
		{"list", Request{Method: MethodList, URL: loc}},
		{"stat", Request{Method: MethodStat, URL: loc}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.DownloadRequest(context.Background(), &tc.req, filepath.Join(t.TempDir(), "f"), DownloadOptions{})
			if schemes.KindOf(err) != schemes.KindUsage {
				t.Errorf("DownloadRequest: err %v, want KindUsage", err)
			}
			_, _, err = c.Stream(context.Background(), &tc.req, &bytes.Buffer{}, nil)
			if schemes.KindOf(err) != schemes.KindUsage {
				t.Errorf("Stream: err %v, want KindUsage", err)
			}
		})
	}
	if h.fetches != 0 {
		t.Fatalf("%d fetches for refused requests", h.fetches)
	}
	// The same Request from byte 0 is carried out.
	var out bytes.Buffer
	if _, n, err := c.Stream(context.Background(), &Request{URL: loc}, &out, nil); err != nil || n != 4 || out.String() != "data" {
		t.Fatalf("Stream: %d bytes %q, %v", n, out.String(), err)
	}
}

func mustParse(t *testing.T, c *Client, raw string) schemes.Locator {
	t.Helper()
	loc, err := c.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// nextSeen records what each request's context named as next.
type nextSeen struct {
	fakeHandler
	seen [][]schemes.Locator
}

func (h *nextSeen) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	h.seen = append(h.seen, schemes.NextOf(ctx))
	return h.fakeHandler.Fetch(ctx, req)
}

// TestNextReachesPipeliningHandlers: a Request's Next reaches the handler
// (schemes.NextOf), at most MaxNext of them, only where the scheme
// pipelines, through Do, DownloadRequest and Stream alike.
func TestNextReachesPipeliningHandlers(t *testing.T) {
	var next []schemes.Locator
	for i := range MaxNext + 5 {
		next = append(next, fakeLoc{&schemes.URL{Scheme: "t", Opaque: fmt.Sprint(i)}})
	}
	for _, caps := range []schemes.Caps{schemes.Retrieves, schemes.Retrieves | schemes.Pipelines} {
		h := &nextSeen{fakeHandler: fakeHandler{data: map[string]string{"x": "data"}}}
		r := schemes.NewRegistry()
		r.Register(schemes.Scheme{Name: "t", Handler: h, Caps: caps,
			Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
		c := &Client{Registry: r}
		req := &Request{URL: mustParse(t, c, "t:x"), Next: next}
		if resp, err := c.Do(context.Background(), req); err != nil {
			t.Fatal(err)
		} else {
			resp.Close()
		}
		if _, err := c.DownloadRequest(context.Background(), req, filepath.Join(t.TempDir(), "f"), DownloadOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Stream(context.Background(), req, io.Discard, nil); err != nil {
			t.Fatal(err)
		}
		want := 0
		if caps.Has(schemes.Pipelines) {
			want = MaxNext
		}
		for i, seen := range h.seen {
			if len(seen) != want || want > 0 && seen[0] != next[0] {
				t.Errorf("caps %v, call %d: the handler was told of %d next URLs, want the first %d", caps, i, len(seen), want)
			}
		}
		if len(h.seen) != 3 {
			t.Fatalf("%d fetches, want 3", len(h.seen))
		}
	}
}
