package fetch

import (
	"cmp"
	"sync"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/schemes/file"
	"github.com/urlget/urlget/schemes/ftp"
	"github.com/urlget/urlget/schemes/gopher"
	"github.com/urlget/urlget/schemes/http"
	"github.com/urlget/urlget/schemes/mailto"
	"github.com/urlget/urlget/schemes/nntp"
	"github.com/urlget/urlget/schemes/prospero"
	"github.com/urlget/urlget/schemes/telnet"
	"github.com/urlget/urlget/schemes/wais"
)

// Config holds the scheme-specific settings NewRegistry passes to handlers.
type Config struct {
	// NoFileFTP refuses file: URLs on another host instead of retrieving
	// them by ftp (libwww's rule).
	NoFileFTP bool
	// Max (--max) is the most entries a listing asks the server for,
	// where a protocol asks for a number: a news group's newest articles,
	// a WAIS search's hits. 0 means each scheme's own default.
	Max      int
	HTTP     *http.Handler     // http and https settings (-H, -A, -e, --compressed, --fail-with-body); nil: defaults
	FTP      *ftp.Handler      // ftp and ftps settings (--ftp-ssl, --ascii, ...); nil: defaults
	NNTP     *nntp.Handler     // news, nntp, nntps (--nntp-server, --max, --head, --body); nil: defaults
	Gopher   *gopher.Handler   // gopher settings (--search, --form, --views); nil means defaults
	Telnet   *telnet.Handler   // telnet sessions (--login, --telnet-idle); nil means defaults
	Mailto   *mailto.Handler   // mail submission (--smtp-server, --from, --dry-run); nil means defaults
	WAIS     *wais.Handler     // wais searches (--max); nil means defaults
	Prospero *prospero.Handler // prospero resolution (--prospero-local); nil means defaults
}

// NewRegistry returns a registry of every scheme urlget knows: all ten of
// RFC 1738 and their TLS and draft variants. Schemes whose handlers are not
// written yet parse, and fail to fetch with KindUnsupported.
func NewRegistry(cfg Config) *schemes.Registry {
	r := schemes.NewRegistry()
	groups := [][]schemes.Scheme{
		file.Schemes(&file.Handler{NoFTP: cfg.NoFileFTP}),
		http.Schemes(cmp.Or(cfg.HTTP, &http.Handler{})),
		ftp.Schemes(cfg.FTP),
		gopher.Schemes(cfg.Gopher),
		mailto.Schemes(cfg.Mailto),
		nntp.Schemes(cfg.NNTP),
		telnet.Schemes(cfg.Telnet),
		wais.Schemes(cfg.WAIS),
		prospero.Schemes(cfg.Prospero),
	}
	for _, g := range groups {
		for _, s := range g {
			r.Register(s)
		}
	}
	return r
}

var defaultRegistry = sync.OnceValue(func() *schemes.Registry { return NewRegistry(Config{}) })
