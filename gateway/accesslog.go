package gateway

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/urlget/urlget/schemes"
)

// record ends a request: its metrics, and its line in the access log.
func (s *Server) record(r *http.Request, ex *exchange) {
	s.ops.metrics.observe(ex)
	if s.ops.log == nil {
		return
	}
	s.ops.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("method", r.Method),
		slog.String("path", logPath(r)),
		slog.Int("status", ex.rec.code()),
		slog.Int64("bytes", ex.rec.bytes),
		slog.Float64("duration_ms", float64(time.Since(ex.start).Microseconds())/1000),
		slog.String("scheme", ex.scheme),
		slog.String("host", ex.host),
	)
}

// logPath is what an access-log line says r asked for: the gateway
// address (or a proxy request's URL) with any password redacted as on the
// gateway's pages, and without its query — a search's words, a form's
// answers, the URL of /go — which are what a person typed, and no log's
// business. A POST's body (a form's answers, a message) is never read
// here.
func logPath(r *http.Request) string {
	raw, err := URLOf(r)
	if err != nil {
		// The gateway's own pages (/, /go, /search) or no address at all.
		path, _, _ := strings.Cut(r.RequestURI, "?")
		return schemes.RedactString(path)
	}
	raw, _, _ = strings.Cut(schemes.RedactString(raw), "?")
	if !strings.HasPrefix(r.RequestURI, "/") {
		return raw
	}
	if a := Address(raw); a != "" {
		return a
	}
	return raw
}
