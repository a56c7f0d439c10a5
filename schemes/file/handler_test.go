package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// recTrace records every traced line.
// recTrace records the trace of a test request.
type recTrace = schemestest.Trace

func request(t *testing.T, raw string) (*schemes.Request, *recTrace) {
	t.Helper()
	f, err := parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	tr := &recTrace{}
	return &schemes.Request{URL: f, Trace: tr}, tr
}

// fileURL is the file URL of a local path.
func fileURL(p string) string { return "file://" + filepath.ToSlash(p) }

func readAll(t *testing.T, r *schemes.Response) string {
	t.Helper()
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFetchFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a b.txt")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	mt := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(p, mt, mt)
	h := &Handler{}
	req, _ := request(t, fileURL(dir)+"/a%20b.txt")
	r, err := h.Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, r); got != "0123456789" {
		t.Errorf("body %q", got)
	}
	if r.Size != 10 || r.Offset != 0 || r.Name != "a b.txt" || !r.ModTime.Equal(mt) || r.Listing != nil ||
		r.Kind != schemes.EntryFile || r.Precision != time.Nanosecond {
		t.Errorf("response %+v", r)
	}
}

func TestFetchLocalhostAndNoSlashes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	for _, raw := range []string{"file://localhost" + dir + "/f", "file:" + dir + "/f"} {
		req, _ := request(t, raw)
		r, err := (&Handler{}).Fetch(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := readAll(t, r); got != "x" {
			t.Errorf("%s: body %q", raw, got)
		}
	}
}

func TestFetchDirectory(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("hello"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := os.Symlink("b.txt", filepath.Join(dir, "a-link")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "c\nd"), nil, 0o644)
	want := map[string]struct {
		target string
		kind   schemes.EntryKind
		size   int64
		url    string
	}{
		"a-link": {"b.txt", schemes.EntryLink, -1, fileURL(dir) + "/a-link"},
		"b.txt":  {"", schemes.EntryFile, 5, fileURL(dir) + "/b.txt"},
		"c\nd":   {"", schemes.EntryFile, 0, fileURL(dir) + "/c%0Ad"},
		"sub":    {"", schemes.EntryDir, -1, fileURL(dir) + "/sub/"},
	}
	h := &Handler{}
	type call func(context.Context, *schemes.Request) (*schemes.Response, error)
	for _, raw := range []string{fileURL(dir), fileURL(dir) + "/"} {
		for name, do := range map[string]call{"Fetch": h.Fetch, "List": h.List} {
			req, _ := request(t, raw)
			r, err := do(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if r.Body != nil || r.Listing == nil || r.Kind != schemes.EntryDir || r.Name != filepath.Base(dir) ||
				r.Size != -1 || r.ModTime.IsZero() {
				t.Errorf("%s %s: response %+v", name, raw, r)
			}
			entries, err := schemes.ReadAll(r.Listing)
			if err != nil || len(entries) != len(want) {
				t.Fatalf("%s %s: entries %+v, %v", name, raw, entries, err)
			}
			for _, e := range entries {
				w, ok := want[e.Name]
				if !ok || e.Kind != w.kind || e.Size != w.size || e.Target != w.target || e.ModTime.IsZero() ||
					e.Precision != time.Nanosecond || e.Title != "" {
					t.Errorf("%s %s: entry %+v, want %+v", name, raw, e, w)
					continue
				}
				if got := e.Locator.String(); got != w.url {
					t.Errorf("%s: Locator %q, want %q", e.Name, got, w.url)
				}
				// The Locator round-trips and fetches the item itself.
				back, err := parse(e.Locator.String())
				if err != nil || back.Path != e.Locator.(*URL).Path || !schemestest.Same(back, e.Locator) {
					t.Errorf("%s: Locator %q does not round-trip: %v", e.Name, e.Locator, err)
				}
				if e.Kind == schemes.EntryFile {
					got, err := h.Fetch(context.Background(), &schemes.Request{URL: e.Locator})
					if err != nil || readAll(t, got) != map[string]string{"b.txt": "hello", "c\nd": ""}[e.Name] {
						t.Errorf("%s: fetching the Locator: %v", e.Name, err)
					}
				}
			}
		}
	}
	// Listing a file is a usage error naming the path.
	req, _ := request(t, fileURL(dir)+"/b.txt")
	var se *schemes.Error
	if _, err := h.List(context.Background(), req); !errors.As(err, &se) || se.Kind != schemes.KindUsage || se.Part != "path" {
		t.Errorf("List(file) = %v, want KindUsage on the path", err)
	}
}

// TestListStreams: a listing is read a batch at a time in the file
// system's order (not sorted), and stops at once when its context ends.
func TestListStreams(t *testing.T) {
	dir := t.TempDir()
	const n = readDirBatch*2 + 7
	for i := range n {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d", i)), nil, 0o644)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := request(t, fileURL(dir))
	r, err := (&Handler{}).List(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, _ := os.Open(dir)
	order, _ := d.Readdirnames(-1)
	d.Close()
	for i := range readDirBatch + 1 {
		e, err := r.Listing.Next()
		if err != nil || e.Name != order[i] {
			t.Fatalf("entry %d: %q, %v; want %q (directory order)", i, e.Name, err, order[i])
		}
	}
	cancel()
	if _, err := r.Listing.Next(); !errors.Is(err, context.Canceled) {
		t.Errorf("Next after cancel: %v, want canceled", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestFetchNotFound(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), nil, 0o644)
	for _, p := range []string{"/missing", "/f/under-a-file"} {
		req, _ := request(t, fileURL(dir)+p)
		_, err := (&Handler{}).Fetch(context.Background(), req)
		var e *schemes.Error
		if !errors.As(err, &e) || e.Kind != schemes.KindNotFound || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: err = %#v, want KindNotFound and fs.ErrNotExist", p, err)
		}
		if e != nil && (e.Scheme != "file" || e.Phase != "open") {
			t.Errorf("%s: error fields %+v", p, e)
		}
	}
}

func TestFetchPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		// root reads any file whatever its mode, so there is no way to
		// provoke EACCES here without another user; the mapping itself is
		// covered by TestFSErrorKinds.
		t.Skip("running as root: permission bits are not enforced")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "secret")
	os.WriteFile(p, []byte("x"), 0o000)
	req, _ := request(t, fileURL(p))
	_, err := (&Handler{}).Fetch(context.Background(), req)
	if schemes.KindOf(err) != schemes.KindPermission || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("err = %v, want KindPermission", err)
	}
}

func TestFSErrorKinds(t *testing.T) {
	f, _ := parse("file:///x")
	for _, c := range []struct {
		err  error
		kind schemes.Kind
	}{
		{&fs.PathError{Op: "open", Path: "/x", Err: fs.ErrPermission}, schemes.KindPermission},
		{&fs.PathError{Op: "open", Path: "/x", Err: fs.ErrNotExist}, schemes.KindNotFound},
		{errors.New("other"), schemes.KindOther},
	} {
		err := fsError(f, "open", c.err)
		if schemes.KindOf(err) != c.kind || !errors.Is(err, c.err) {
			t.Errorf("fsError(%v) = %v, want kind %v", c.err, err, c.kind)
		}
	}
}

func TestFetchCanceled(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("data"), 0o644)
	req, _ := request(t, fileURL(dir)+"/f")
	ctx, cancel := context.WithCancel(context.Background())
	r, err := (&Handler{}).Fetch(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	cancel()
	if _, err := r.Body.Read(make([]byte, 4)); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v, want canceled", err)
	}
	if _, err := (&Handler{}).Fetch(ctx, req); schemes.KindOf(err) != schemes.KindCanceled {
		t.Errorf("fetch after cancel: %v", err)
	}
}

func TestFetchRemote(t *testing.T) {
	req, tr := request(t, "file://ftp.example.com/pub/a%20b.txt")
	r, err := (&Handler{}).Fetch(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Redirect != "ftp://ftp.example.com/pub/a%20b.txt" || r.Body != nil || r.Listing != nil {
		t.Errorf("response %+v", r)
	}
	// List and Stat refer the caller to the same place.
	for name, do := range map[string]func(context.Context, *schemes.Request) (*schemes.Response, error){
		"List": (&Handler{}).List, "Stat": (&Handler{}).Stat,
	} {
		if r, err := do(context.Background(), req); err != nil || r.Redirect != "ftp://ftp.example.com/pub/a%20b.txt" {
			t.Errorf("%s: %+v, %v", name, r, err)
		}
	}
	if !strings.Contains(tr.String(), "* host \"ftp.example.com\" is not this machine; retrieving ftp://ftp.example.com/pub/a%20b.txt") {
		t.Errorf("trace %q", tr)
	}
	plan, err := (&Handler{}).Explain(req)
	if err != nil || len(plan) != 1 || plan[0] != "redirect ftp://ftp.example.com/pub/a%20b.txt" {
		t.Errorf("Explain = %q, %v", plan, err)
	}

	// The refusal names the option as the caller does: a handler built
	// in code as the library does, one built from the declaration in the
	// caller's words.
	d := Declaration()
	built, err := d.New(d.ValuesOf(schemes.Options{"no-file-ftp": true}, func(o string) string { return "--" + o }))
	if err != nil {
		t.Fatal(err)
	}
	for h, says := range map[*Handler]string{{NoFTP: true}: "option no-file-ftp", built[0].Handler.(*Handler): "--no-file-ftp"} {
		for name, call := range map[string]func() error{
			"Fetch":   func() error { _, err := h.Fetch(context.Background(), req); return err },
			"Explain": func() error { _, err := h.Explain(req); return err },
			"List":    func() error { _, err := h.List(context.Background(), req); return err },
			"Stat":    func() error { _, err := h.Stat(context.Background(), req); return err },
		} {
			err := call()
			var e *schemes.Error
			if !errors.As(err, &e) || e.Kind != schemes.KindUnsupported || e.Kind.ExitCode() != 8 {
				t.Errorf("%s with NoFTP: err = %v, want KindUnsupported", name, err)
				continue
			}
			if !strings.Contains(e.Error(), "and "+says+" forbids") {
				t.Errorf("%s with NoFTP: message %q does not name %s", name, e, says)
			}
		}
	}
}

func TestFetchOwnHostName(t *testing.T) {
	name, err := os.Hostname()
	if err != nil || name == "" {
		t.Skip("no host name")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644)
	req, _ := request(t, "file://"+strings.ToLower(name)+dir+"/f")
	r, err := (&Handler{}).Fetch(context.Background(), req)
	if err != nil {
		t.Skipf("host name %q does not parse as a URL host: %v", name, err)
	}
	if r.Redirect != "" || readAll(t, r) != "x" {
		t.Errorf("own host name was not read locally: %+v", r)
	}
}

func TestExplain(t *testing.T) {
	h := &Handler{}
	for raw, want := range map[string]string{
		"file:///etc/passwd":    "open /etc/passwd",
		"file://localhost/etc/": "readdir /etc/",
		"file:///a%0Ab":         `open "/a\nb"`,
	} {
		req, _ := request(t, raw)
		plan, err := h.Explain(req)
		if err != nil || strings.Join(plan, "|") != want {
			t.Errorf("%s: Explain = %q, %v; want %q", raw, plan, err, want)
		}
	}
	req, _ := request(t, "file:///f")
	req.Offset = 7
	if plan, _ := h.Explain(req); strings.Join(plan, "|") != "open /f|seek 7" {
		t.Errorf("Explain resume = %q", plan)
	}
}

func TestSchemes(t *testing.T) {
	s := Schemes(nil)
	if len(s) != 1 || s[0].Name != "file" || s[0].Handler != nil {
		t.Errorf("Schemes(nil) = %+v", s)
	}
	h := &Handler{}
	s = Schemes(h)
	if s[0].Handler != h || s[0].Caps != schemes.Retrieves|schemes.Lists|schemes.Stats|schemes.Resumes|schemes.Local|schemes.Ranges ||
		s[0].Caps.Redirectable() {
		t.Errorf("Schemes(h) = %+v", s)
	}
	r := schemes.NewRegistry()
	r.Register(s[0])
	loc, err := r.Parse("file:///x")
	if err != nil || loc.(*URL).Path != "/x" {
		t.Errorf("registry parse: %v %v", loc, err)
	}
}

// TestBodyWriteToHandsOverTheFile: a body copied into a file gives the
// same bytes through WriteTo (the kernel's copy), and a canceled context
// stops it before anything is copied.
func TestBodyWriteToHandsOverTheFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	data := strings.Repeat("0123456789", 100000)
	os.WriteFile(src, []byte(data), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := request(t, fileURL(src))
	resp, err := (&Handler{}).Fetch(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	dst, _ := os.Create(filepath.Join(dir, "dst"))
	defer dst.Close()
	n, err := resp.Body.(io.WriterTo).WriteTo(dst)
	resp.Body.Close()
	if got, _ := os.ReadFile(dst.Name()); err != nil || n != int64(len(data)) || string(got) != data {
		t.Fatalf("WriteTo: %d bytes, %v; file has %d bytes", n, err, len(got))
	}
	resp, err = (&Handler{}).Fetch(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	if n, err := resp.Body.(io.WriterTo).WriteTo(dst); n != 0 || schemes.KindOf(err) != schemes.KindCanceled {
		t.Fatalf("after cancel: %d bytes, %v", n, err)
	}
}
