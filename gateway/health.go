package gateway

import (
	"fmt"
	"net/http"
	"strings"
)

// The operator's endpoints. Every gateway address has two slashes at
// least, "/SCHEME/REST", so none of these one-segment paths is the
// address of any URL.
const (
	// HealthPath answers 200 while the process serves (liveness).
	HealthPath = "/healthz"
	// ReadyPath answers 200 while the gateway takes new requests and 503
	// when it is draining (Drain) or every upstream slot of MaxUpstream is
	// in use (readiness).
	ReadyPath = "/readyz"
	// MetricsPath serves the gateway's metrics in the Prometheus text
	// format.
	MetricsPath = "/metrics"
)

// operator answers the operator's endpoints, and reports whether r was
// one. They answer GET and HEAD in origin form whatever the Host header
// says: a probe or a scraper names the gateway by an address of its own
// (a pod's IP), and what they tell is no resource of anyone's.
func (s *Server) operator(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.RequestURI, "/") || r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	switch r.URL.Path {
	case HealthPath:
		plain(w, http.StatusOK, "ok")
	case ReadyPath:
		if why := s.notReady(); why != "" {
			plain(w, http.StatusServiceUnavailable, "not ready: "+why)
			return true
		}
		plain(w, http.StatusOK, "ready")
	case MetricsPath:
		s.ops.metrics.handler.ServeHTTP(w, r)
	default:
		return false
	}
	return true
}

// notReady says why the gateway should get no new request, "" when it
// should. A gateway whose every upstream slot is taken would make a new
// request wait for one: a load balancer that reads /readyz sends it to
// another replica instead, and comes back when a slot is free.
func (s *Server) notReady() string {
	if s.ops.draining.Load() {
		return "shutting down"
	}
	if n := s.slots.inUse(); n >= cap(s.slots.total) {
		return fmt.Sprintf("all %d upstream slots are in use", n)
	}
	return ""
}

// inUse is how many retrievals hold a slot now.
func (l *slots) inUse() int { return len(l.total) }

// plain answers a one-line text/plain body that no cache keeps.
func plain(w http.ResponseWriter, status int, text string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	fmt.Fprintln(w, text)
}
