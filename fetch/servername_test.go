package fetch

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// suggesting answers every fetch with body, suggesting name, and failing
// with fail after the body (an error page written on purpose).
type suggesting struct {
	body, name string
	fail       error
}

func (h suggesting) Fetch(ctx context.Context, req *schemes.Request) (*schemes.Response, error) {
	var r io.Reader = strings.NewReader(h.body)
	if h.fail != nil {
		r = io.MultiReader(r, failing{h.fail})
	}
	return &schemes.Response{Body: io.NopCloser(r), Size: -1, SuggestedName: h.name}, nil
}

func (h suggesting) Explain(*schemes.Request) ([]string, error) { return nil, nil }

type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }

func suggestingClient(h suggesting) *Client {
	r := schemes.NewRegistry()
	r.Register(schemes.Scheme{Name: "t", Handler: h, Caps: schemes.Retrieves,
		Parse: func(u *schemes.URL) (schemes.Locator, error) { return fakeLoc{u}, nil }})
	return &Client{Registry: r}
}

// TestServerName: with ServerName the file takes the server's name beside
// NAME, never replaces a file of that name, and is refused a name that is
// not one plain file name; no work file is ever left.
func TestServerName(t *testing.T) {
	page := &schemes.Error{Scheme: "t", Kind: schemes.KindNotFound, Code: 404, Msg: "not found", Err: schemes.ErrBodyWritten}
	for _, tc := range []struct {
		name      string
		h         suggesting
		existing  string // a file already in the directory, holding "mine"
		opt       DownloadOptions
		wantFiles []string
		wantPath  string // Result.Path's base name; "" for no Result
		wantBody  string
		wantKind  schemes.Kind
		wantExist bool
	}{
		{name: "suggested", h: suggesting{body: "data", name: "report.pdf"}, opt: DownloadOptions{ServerName: true},
			wantFiles: []string{"report.pdf"}, wantPath: "report.pdf", wantBody: "data"},
		{name: "none suggested", h: suggesting{body: "data"}, opt: DownloadOptions{ServerName: true},
			wantFiles: []string{"NAME"}, wantPath: "NAME", wantBody: "data"},
		{name: "not asked", h: suggesting{body: "data", name: "report.pdf"},
			wantFiles: []string{"NAME"}, wantPath: "NAME", wantBody: "data"},
		{name: "never replaces", h: suggesting{body: "data", name: "report.pdf"}, existing: "report.pdf", opt: DownloadOptions{ServerName: true},
			wantFiles: []string{"report.pdf"}, wantPath: "report.pdf", wantBody: "mine", wantKind: schemes.KindLocal, wantExist: true},
		{name: "not a plain name", h: suggesting{body: "data", name: "../up"}, opt: DownloadOptions{ServerName: true},
			wantPath: "NAME", wantKind: schemes.KindSafety},
		{name: "with Resume", h: suggesting{body: "data", name: "x"}, opt: DownloadOptions{ServerName: true, Resume: true},
			wantKind: schemes.KindUsage},
		{name: "an error page is the file", h: suggesting{body: "<h1>404</h1>", fail: page},
			wantFiles: []string{"NAME"}, wantPath: "NAME", wantBody: "<h1>404</h1>", wantKind: schemes.KindNotFound},
		{name: "an error page, named", h: suggesting{body: "<h1>404</h1>", name: "oops.html", fail: page}, opt: DownloadOptions{ServerName: true},
			wantFiles: []string{"oops.html"}, wantPath: "oops.html", wantBody: "<h1>404</h1>", wantKind: schemes.KindNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.existing != "" {
				os.WriteFile(filepath.Join(dir, tc.existing), []byte("mine"), 0o644)
			}
			res, err := suggestingClient(tc.h).Download(context.Background(), "t:x", filepath.Join(dir, "NAME"), tc.opt)
			if schemes.KindOf(err) != tc.wantKind || (tc.wantKind == 0) != (err == nil) {
				t.Fatalf("err %v (kind %v), want kind %v", err, schemes.KindOf(err), tc.wantKind)
			}
			var pk *PartialKept
			if errors.As(err, &pk) {
				t.Errorf("err %v says a partial copy was kept", err)
			}
			if errors.Is(err, fs.ErrExist) != tc.wantExist {
				t.Errorf("err %v: fs.ErrExist in its chain %v, want %v", err, !tc.wantExist, tc.wantExist)
			}
			if got := fsNames(t, os.DirFS(dir).(fs.ReadDirFS), "."); !slices.Equal(got, tc.wantFiles) {
				t.Errorf("files %q, want %q", got, tc.wantFiles)
			}
			switch {
			case tc.wantPath == "" && res != nil:
				t.Errorf("a Result %+v, want none", res)
			case tc.wantPath != "" && (res == nil || filepath.Base(res.Path) != tc.wantPath):
				t.Errorf("Result %+v, want Path %s", res, tc.wantPath)
			}
			if tc.wantBody != "" {
				if b, _ := os.ReadFile(filepath.Join(dir, tc.wantFiles[0])); string(b) != tc.wantBody {
					t.Errorf("the file holds %q, want %q", b, tc.wantBody)
				}
			}
		})
	}
}
