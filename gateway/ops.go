package gateway

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/urlget/urlget/schemes"
)

// ops is what the gateway tells its operator: whether it is ready
// (draining), its metrics, and its access log. A Server holds one; the
// hooks of the request path (noteLocator, noteUpstream, noteFirstByte)
// fill in the exchange that ServeHTTP records when the request ends.
type ops struct {
	draining atomic.Bool
	metrics  *metrics
	log      *slog.Logger
}

// exchange is one request's record, for its access-log line and its
// metrics: what the request path learnt of it as it went.
type exchange struct {
	rec    *recorder
	start  time.Time
	scheme string // of the URL asked for, once parsed; "" for the gateway's own pages
	host   string // the upstream's host and port, "" when the URL names none
	// upStart is when the request got its upstream slot, firstByte when
	// the scheme's answer came (the body ready to read), upEnd when the
	// slot was given back, the transfer done.
	upStart, firstByte, upEnd time.Time
}

type exchangeKey struct{}

// exchangeOf is the record of the request whose context is ctx, nil for
// a request that did not come through ServeHTTP (a test calling a method
// directly).
func exchangeOf(ctx context.Context) *exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	return ex
}

// ServeHTTP answers one request, as serve does, after the operator's
// endpoints (/healthz, /readyz, /metrics: see Operations), and records
// it: one access-log line (Options.Log) and the request metrics.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Nothing is stored but what is said to be (cacheAs): no failure,
	// refusal, redirect or form, nor a probe's or a scrape's answer.
	w.Header().Set("Cache-Control", noStore)
	if s.operator(w, r) {
		return
	}
	ex := &exchange{rec: &recorder{ResponseWriter: w}, start: time.Now()}
	s.ops.metrics.inFlight.Inc()
	defer func() {
		s.ops.metrics.inFlight.Dec()
		s.record(r, ex)
	}()
	s.serve(ex.rec, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex)))
}

// Drain marks s as shutting down: /readyz fails from now on, so that a
// load balancer sends it no new request while those under way finish
// (http.Server.Shutdown stops accepting and waits for them).
func (s *Server) Drain() { s.ops.draining.Store(true) }

// noteLocator records the URL a request asks for: its scheme and upstream
// host, the labels of its line and metrics.
func noteLocator(ctx context.Context, loc schemes.Locator) {
	if ex := exchangeOf(ctx); ex != nil {
		g := loc.Generic()
		// As the scheme's registry reads it: a URL may spell its
		// scheme in any case (GoPhEr:), one label each would not do.
		ex.scheme = strings.ToLower(g.Scheme)
		if g.Authority {
			ex.host = g.HostPort()
		}
	}
}

// noteUpstream records that the request got its upstream slot, and
// returns what records its end.
func noteUpstream(ctx context.Context) (end func()) {
	ex := exchangeOf(ctx)
	if ex == nil {
		return func() {}
	}
	ex.upStart = time.Now()
	return func() { ex.upEnd = time.Now() }
}

// noteFirstByte records that the scheme's answer came: the upstream's
// time to first byte.
func noteFirstByte(ctx context.Context) {
	if ex := exchangeOf(ctx); ex != nil && ex.firstByte.IsZero() {
		ex.firstByte = time.Now()
	}
}
