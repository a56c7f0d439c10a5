package fetch

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
)

// policyScheme registers name on c with caps, served by h.
func policyScheme(c *Client, name string, caps schemes.Caps, h schemes.Handler) {
	c.Registry.Register(schemes.Scheme{Name: name, Caps: caps, Handler: h,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
}

// settingOf is the Setting of err's *schemes.Error, "" for none.
func settingOf(err error) string {
	var se *schemes.Error
	if errors.As(err, &se) {
		return se.Setting
	}
	return ""
}

// recorder is a handler that only records that it was reached.
type recorder struct {
	mu      sync.Mutex
	reached []string
}

func (r *recorder) Fetch(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reached = append(r.reached, req.URL.String())
	return &schemes.Response{Body: io.NopCloser(strings.NewReader("reached")), Size: 7}, nil
}

func (r *recorder) Explain(*schemes.Request) ([]string, error) { return nil, nil }

func TestRedirectPolicyByCaps(t *testing.T) {
	tests := []struct {
		target  string
		caps    schemes.Caps
		allowed bool
	}{
		{"ret", schemes.Retrieves | schemes.RedirectTarget, true},
		{"ret2", schemes.Retrieves | schemes.Resumes | schemes.RedirectTarget, true},
		{"notclaimed", schemes.Retrieves | schemes.Resumes, false}, // gopher, news, wais, prospero
		{"mailto", schemes.Sends, false},
		{"telnet", schemes.Interactive, false},
		{"rlogin", schemes.Interactive, false},
		{"file", schemes.Retrieves | schemes.Resumes | schemes.Local, false},
		{"parseonly", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			h := &fakeHandler{redirects: map[string]string{"a": tc.target + ":x"}}
			c := newClient(h)
			rec := &recorder{}
			var handler schemes.Handler = rec
			if tc.caps == 0 {
				handler = nil
			}
			policyScheme(c, tc.target, tc.caps, handler)
			resp, err := c.Get(context.Background(), "t:a")
			if tc.allowed {
				if err != nil {
					t.Fatalf("redirect to %s refused: %v", tc.target, err)
				}
				resp.Close()
				if len(rec.reached) != 1 {
					t.Fatalf("target reached %d times", len(rec.reached))
				}
				return
			}
			if schemes.KindOf(err) != schemes.KindSafety || !strings.Contains(err.Error(), tc.target+":x") {
				t.Fatalf("err = %v, want a safety refusal naming the target", err)
			}
			if len(rec.reached) != 0 {
				t.Fatalf("refused target was reached: %q", rec.reached)
			}
			// The user may still name the scheme directly: policy is
			// about where servers send us.
			if tc.caps != 0 {
				if resp, err := c.Get(context.Background(), tc.target+":direct"); err != nil {
					t.Fatalf("direct %s: %v", tc.target, err)
				} else {
					resp.Close()
				}
			}
		})
	}
}

func TestProtoAndProtoRedir(t *testing.T) {
	h := &fakeHandler{data: map[string]string{"x": "ok"}, redirects: map[string]string{"a": "u:x", "b": "t:x"}}
	c := newClient(h)
	policyScheme(c, "u", schemes.Retrieves, &recorder{})
	all := c.AllProtocols()

	c.Protocols, _ = ParseProtocols("=u", all, all)
	if _, err := c.Get(context.Background(), "t:x"); schemes.KindOf(err) != schemes.KindSafety || settingOf(err) != SettingProtocols {
		t.Fatalf("--proto =u let t: through: %v", err)
	}
	c.Protocols = nil

	c.RedirectProtocols, _ = ParseProtocols("-u", c.DefaultRedirectProtocols(), all)
	if _, err := c.Get(context.Background(), "t:a"); schemes.KindOf(err) != schemes.KindSafety || settingOf(err) != SettingRedirectProtocols {
		t.Fatalf("--proto-redir -u let a redirect to u: through: %v", err)
	}
	resp, err := c.Get(context.Background(), "t:b") // t: itself is still allowed
	if err != nil {
		t.Fatal(err)
	}
	resp.Close()
}

func TestParseProtocols(t *testing.T) {
	all := Protocols{"ftp": true, "http": true, "https": true, "telnet": true}
	redir := Protocols{"ftp": true, "http": true, "https": true}
	tests := []struct {
		spec, want string
		base       Protocols
		bad        bool
	}{
		{spec: "=http,https", base: all, want: "http,https"},
		{spec: "-all,+ftp", base: all, want: "ftp"},
		{spec: "-telnet", base: all, want: "ftp,http,https"},
		{spec: "all", base: Protocols{}, want: "ftp,http,https,telnet"},
		{spec: "+telnet", base: redir, want: "ftp,http,https,telnet"},
		{spec: "-all", base: all, want: ""},
		{spec: "HTTP", base: Protocols{}, want: "http"},
		{spec: "=gopher", base: all, bad: true},
		{spec: "htp", base: all, bad: true},
	}
	for _, tc := range tests {
		got, err := ParseProtocols(tc.spec, tc.base, all)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: no error", tc.spec)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%q from %v = %q, %v; want %q", tc.spec, tc.base, got, err, tc.want)
		}
	}
}

// credHandler redirects per its map and records the credentials each
// request was given for its own host.
type credHandler struct {
	redirects map[string]string
	mu        sync.Mutex
	got       []string // "host=user:pass" or "host=none"
}

func (h *credHandler) Fetch(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	g := req.URL.Generic()
	seen := g.Host + "=none"
	if req.Credentials != nil {
		if u, p, ok := req.Credentials(g.Scheme, g.Host, g.EffectivePort()); ok {
			seen = g.Host + "=" + u + ":" + p
		}
	}
	h.mu.Lock()
	h.got = append(h.got, seen)
	h.mu.Unlock()
	if to, ok := h.redirects[g.Host+g.Path]; ok {
		return &schemes.Response{Redirect: to, Status: 302}, nil
	}
	return &schemes.Response{Body: io.NopCloser(strings.NewReader("ok")), Size: 2}, nil
}

func (h *credHandler) Explain(*schemes.Request) ([]string, error) { return nil, nil }

// TestCredentialsStayWithTheirHost: the user's logins (-u, then a netrc's)
// go only to the origin of the URL the caller named, unless
// LocationTrusted; a netrc names hosts, so there each host gets its own
// entry.
func TestCredentialsStayWithTheirHost(t *testing.T) {
	dashU := func(string, string, int) (string, string, bool) { return "me", "pw", true }
	knowsNothing := func(string, string, int) (string, string, bool) { return "", "", false }
	netrc, err := ParseNetrc("machine a login na password pa\nmachine b login nb password pb\n")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		start   string
		user    schemes.Credentials // -u
		netrc   *Netrc
		trusted bool
		want    string
	}{
		{"other host gets nothing", "c://a/go-b", dashU, nil, false, "a=me:pw b=none"},
		{"location-trusted", "c://a/go-b", dashU, nil, true, "a=me:pw b=me:pw"},
		{"other port gets nothing", "c://a/go-a2", dashU, nil, false, "a=me:pw a=none"},
		{"same origin keeps -u", "c://a/go-self", dashU, nil, false, "a=me:pw a=me:pw"},
		{"URL login kept at the same origin", "c://u:urlpw@a/go-self", dashU, nil, false, "a=me:pw a=u:urlpw"},
		{"URL login not sent elsewhere", "c://u:urlpw@a/go-b", dashU, nil, false, "a=me:pw b=none"},
		{"netrc: other host gets nothing, though named", "c://a/go-b", nil, netrc, false, "a=na:pa b=none"},
		{"netrc, location-trusted: each host its own", "c://a/go-b", nil, netrc, true, "a=na:pa b=nb:pb"},
		{"netrc: other port gets nothing", "c://a/go-a2", nil, netrc, false, "a=na:pa a=none"},
		{"netrc: same origin keeps it", "c://a/go-self", nil, netrc, false, "a=na:pa a=na:pa"},
		{"-u before netrc", "c://a/go-b", dashU, netrc, false, "a=me:pw b=none"},
		{"-u that knows nothing for the host", "c://a/go-b", knowsNothing, netrc, false, "a=na:pa b=none"},
		{"a host the netrc does not name", "c://z/end", nil, netrc, false, "z=none"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &credHandler{redirects: map[string]string{
				"ago-b": "c://b/end", "ago-a2": "c://a:99/end", "ago-self": "c://a/end"}}
			c := &Client{Registry: schemes.NewRegistry(), LocationTrusted: tc.trusted, Credentials: tc.user, Netrc: tc.netrc}
			policyScheme(c, "c", schemes.Retrieves|schemes.RedirectTarget, h)
			resp, err := c.Get(context.Background(), tc.start)
			if err != nil {
				t.Fatal(err)
			}
			resp.Close()
			if got := strings.Join(h.got, " "); got != tc.want {
				t.Fatalf("credentials seen: %s; want %s", got, tc.want)
			}
		})
	}
}

// echoHandler fails like a server that echoes the login back.
type echoHandler struct{}

func (echoHandler) Fetch(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	g := req.URL.Generic()
	pass := ""
	if g.Password != nil {
		pass = *g.Password
	} else if req.Credentials != nil {
		_, pass, _ = req.Credentials(g.Scheme, g.Host, g.EffectivePort())
	}
	return nil, &schemes.Error{Scheme: "c", Kind: schemes.KindPermission, Code: 530,
		Msg: "530 Login incorrect for " + pass, Err: errors.New("server said " + pass)}
}

func (echoHandler) Explain(*schemes.Request) ([]string, error) { return nil, nil }

func TestErrorsNeverShowPasswords(t *testing.T) {
	c := &Client{Registry: schemes.NewRegistry(),
		Credentials: func(string, string, int) (string, string, bool) { return "me", "s3cr3t-u", true }}
	policyScheme(c, "c", schemes.Retrieves, echoHandler{})
	for _, raw := range []string{"c://user:pa55word@h/x", "c://h/x"} {
		_, err := c.Get(context.Background(), raw)
		if err == nil {
			t.Fatal("no error")
		}
		msg := err.Error()
		if strings.Contains(msg, "pa55word") || strings.Contains(msg, "s3cr3t-u") || !strings.Contains(msg, "****") {
			t.Errorf("%s: error shows a password: %s", raw, msg)
		}
		var se *schemes.Error
		if !errors.As(err, &se) || se.Code != 530 || !errors.Is(err, fs.ErrPermission) {
			t.Errorf("%s: scrubbing lost the error's fields: %#v", raw, err)
		}
	}
}

// busyHandler is busy once, asking for a wait, then serves.
type busyHandler struct{ calls int }

func (h *busyHandler) Fetch(context.Context, *schemes.Request) (*schemes.Response, error) {
	h.calls++
	if h.calls == 1 {
		e := schemes.BusyError("c", "fetch", 503, "busy")
		e.RetryAfter = 20 * time.Millisecond
		return nil, e
	}
	return &schemes.Response{Body: io.NopCloser(strings.NewReader("ok")), Size: 2}, nil
}

func (h *busyHandler) Explain(*schemes.Request) ([]string, error) { return nil, nil }

func TestRetryHonoursRetryAfter(t *testing.T) {
	var notes []string
	c := &Client{Registry: schemes.NewRegistry(), Retries: 1, RetryDelay: time.Millisecond,
		Notify: func(m string) { notes = append(notes, m) }}
	policyScheme(c, "c", schemes.Retrieves, &busyHandler{})
	resp, err := c.Get(context.Background(), "c:x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Close()
	if len(notes) != 1 || !strings.Contains(notes[0], "retrying in 20ms") {
		t.Fatalf("notes %q, want the server's 20ms wait", notes)
	}
	if schemes.KindBusy.ExitCode() != 5 {
		t.Errorf("busy exits %d, want 5", schemes.KindBusy.ExitCode())
	}
}

// listHandler lists and stats from fixed entries.
type listHandler struct {
	recorder
	entries []schemes.Entry
}

func (h *listHandler) List(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	if req.URL.Generic().Opaque == "moved" {
		return &schemes.Response{Redirect: "l:dir", Status: 301}, nil
	}
	return &schemes.Response{Kind: schemes.EntryDir, Listing: schemes.ListingOf(h.entries)}, nil
}

func (h *listHandler) Stat(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	return &schemes.Response{Kind: schemes.EntryFile, Size: 42, Name: "f", ETag: `"e"`,
		ModTime: time.Unix(1e9, 0), Precision: time.Second}, nil
}

func (h *listHandler) Fetch(_ context.Context, req *schemes.Request) (*schemes.Response, error) {
	return h.List(context.Background(), req)
}

func TestListStatAndDownloadOfAListing(t *testing.T) {
	h := &listHandler{entries: []schemes.Entry{{Name: "a", Kind: schemes.EntryFile, Size: 1}, {Name: "d", Kind: schemes.EntryDir, Size: -1}}}
	c := newClient(&fakeHandler{})
	policyScheme(c, "l", schemes.Retrieves|schemes.Lists|schemes.Stats|schemes.RedirectTarget, h)
	resp, err := c.List(context.Background(), "l:moved")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := schemes.ReadAll(resp.Listing)
	if err != nil || len(entries) != 2 || resp.URL.String() != "l:dir" {
		t.Fatalf("List = %v, %v from %v", entries, err, resp.URL)
	}
	e, err := c.Stat(context.Background(), "l:f")
	if err != nil || e.Kind != schemes.EntryFile || e.Size != 42 || e.Name != "f" || e.Locator.String() != "l:f" {
		t.Fatalf("Stat = %+v, %v", e, err)
	}
	if v, _ := e.Extra.Get("etag"); v != `"e"` {
		t.Errorf("Stat lost the ETag: %v", e.Extra)
	}
	if _, err := c.Stat(context.Background(), "t:x"); schemes.KindOf(err) != schemes.KindUnsupported {
		t.Errorf("Stat of a scheme without Stats: %v", err)
	}
	if _, err := c.List(context.Background(), "t:x"); schemes.KindOf(err) != schemes.KindUnsupported {
		t.Errorf("List of a scheme without Lists: %v", err)
	}

	dir := t.TempDir()
	dest := filepath.Join(dir, "listing.txt")
	if _, err := c.Download(context.Background(), "l:dir", dest, DownloadOptions{}); schemes.KindOf(err) != schemes.KindUsage {
		t.Fatalf("Download of a listing without Render: %v", err)
	}
	res, err := c.Download(context.Background(), "l:dir", dest, DownloadOptions{Render: func(w io.Writer, l schemes.Listing) error {
		for e, err := range schemes.Entries(l) {
			if err != nil {
				return err
			}
			io.WriteString(w, e.Name+"\n")
		}
		return nil
	}})
	if err != nil || !res.Listing {
		t.Fatalf("Download of a listing: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(dest); string(b) != "a\nd\n" || res.Size != 4 {
		t.Fatalf("rendered %q (size %d)", b, res.Size)
	}
}
