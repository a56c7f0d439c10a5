package gateway

import (
	"net/http"
	"strconv"

	"github.com/urlget/urlget/internal/promtext"
)

// metrics are a Server's Prometheus metrics, in a registry of its own
// (two Servers in one process count apart). Their labels are bounded: a
// scheme's name (from the parsed URL, so only the schemes the Client
// knows) and a status class, never a URL or a host.
type metrics struct {
	requests  *promtext.CounterVec
	bytes     *promtext.CounterVec
	firstByte *promtext.HistogramVec
	total     *promtext.HistogramVec
	inFlight  *promtext.Gauge
	handler   http.Handler
}

// Buckets in seconds: an answer's first byte comes within milliseconds
// from a server nearby and seconds from a slow one; a transfer may take
// up to DefaultTimeout (15 minutes).
var (
	firstByteBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}
	totalBuckets     = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900}
)

// newMetrics registers s's metrics, the upstream slots read from s at
// each scrape, and the Go runtime's and process's own.
func newMetrics(s *Server) *metrics {
	reg := &promtext.Registry{}
	m := &metrics{
		requests: reg.NewCounterVec("urlget_gateway_requests_total",
			"Requests answered, by the scheme of the URL asked for (empty for the gateway's own pages) and status class (2xx, 3xx, 4xx, 5xx).",
			"scheme", "status"),
		bytes: reg.NewCounterVec("urlget_gateway_response_bytes_total",
			"Bytes of response bodies sent to clients, by scheme.", "scheme"),
		firstByte: reg.NewHistogramVec("urlget_gateway_upstream_first_byte_seconds",
			"Time from a retrieval's upstream slot to the scheme's answer (its body ready to read, or its failure), by scheme.",
			firstByteBuckets, "scheme"),
		total: reg.NewHistogramVec("urlget_gateway_upstream_duration_seconds",
			"Time a retrieval held its upstream slot, its transfer to the client included, by scheme.",
			totalBuckets, "scheme"),
		inFlight: reg.NewGauge("urlget_gateway_requests_in_flight", "Requests being answered now."),
	}
	reg.NewGaugeFunc("urlget_gateway_upstream_slots_in_use",
		"Retrievals holding an upstream slot now (of urlget_gateway_upstream_slots).",
		func() float64 { return float64(s.slots.inUse()) })
	reg.NewGaugeFunc("urlget_gateway_upstream_slots",
		"Retrievals that may run at once (MaxUpstream); more wait for a slot.",
		func() float64 { return float64(cap(s.slots.total)) })
	reg.NewGaugeFunc("urlget_gateway_upstream_slots_per_host",
		"Retrievals that may run at once for one destination (MaxUpstreamPerHost).",
		func() float64 { return float64(s.slots.per) })
	reg.RegisterRuntime()
	m.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", promtext.ContentType)
		if r.Method != http.MethodHead {
			reg.WriteTo(w)
		}
	})
	return m
}

// observe counts one request that ended as ex says.
func (m *metrics) observe(ex *exchange) {
	m.requests.Inc(ex.scheme, statusClass(ex.rec.code()))
	m.bytes.Add(float64(ex.rec.bytes), ex.scheme)
	if ex.upStart.IsZero() {
		return
	}
	if !ex.firstByte.IsZero() {
		m.firstByte.Observe(ex.firstByte.Sub(ex.upStart).Seconds(), ex.scheme)
	}
	if !ex.upEnd.IsZero() {
		m.total.Observe(ex.upEnd.Sub(ex.upStart).Seconds(), ex.scheme)
	}
}

// statusClass is "2xx" for 200 to 299, and so on.
func statusClass(code int) string {
	return strconv.Itoa(code/100) + "xx"
}
