package gateway

import (
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are a Server's Prometheus metrics, in a registry of its own
// (two Servers in one process count apart). Their labels are bounded: a
// scheme's name (from the parsed URL, so only the schemes the Client
// knows) and a status class, never a URL or a host.
type metrics struct {
	requests  *prometheus.CounterVec
	bytes     *prometheus.CounterVec
	firstByte *prometheus.HistogramVec
	total     *prometheus.HistogramVec
	inFlight  prometheus.Gauge
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
	reg := prometheus.NewRegistry()
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "urlget_gateway_requests_total",
			Help: "Requests answered, by the scheme of the URL asked for (empty for the gateway's own pages) and status class (2xx, 3xx, 4xx, 5xx).",
		}, []string{"scheme", "status"}),
		bytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "urlget_gateway_response_bytes_total",
			Help: "Bytes of response bodies sent to clients, by scheme.",
		}, []string{"scheme"}),
		firstByte: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "urlget_gateway_upstream_first_byte_seconds",
			Help:    "Time from a retrieval's upstream slot to the scheme's answer (its body ready to read, or its failure), by scheme.",
			Buckets: firstByteBuckets,
		}, []string{"scheme"}),
		total: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "urlget_gateway_upstream_duration_seconds",
			Help:    "Time a retrieval held its upstream slot, its transfer to the client included, by scheme.",
			Buckets: totalBuckets,
		}, []string{"scheme"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "urlget_gateway_requests_in_flight",
			Help: "Requests being answered now.",
		}),
	}
	inUse := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "urlget_gateway_upstream_slots_in_use",
		Help: "Retrievals holding an upstream slot now (of urlget_gateway_upstream_slots).",
	}, func() float64 { return float64(s.slots.inUse()) })
	limit := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "urlget_gateway_upstream_slots",
		Help: "Retrievals that may run at once (MaxUpstream); more wait for a slot.",
	}, func() float64 { return float64(cap(s.slots.total)) })
	perHost := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "urlget_gateway_upstream_slots_per_host",
		Help: "Retrievals that may run at once for one destination (MaxUpstreamPerHost).",
	}, func() float64 { return float64(s.slots.per) })
	reg.MustRegister(m.requests, m.bytes, m.firstByte, m.total, m.inFlight, inUse, limit, perHost,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	return m
}

// observe counts one request that ended as ex says.
func (m *metrics) observe(ex *exchange) {
	m.requests.WithLabelValues(ex.scheme, statusClass(ex.rec.code())).Inc()
	m.bytes.WithLabelValues(ex.scheme).Add(float64(ex.rec.bytes))
	if ex.upStart.IsZero() {
		return
	}
	if !ex.firstByte.IsZero() {
		m.firstByte.WithLabelValues(ex.scheme).Observe(ex.firstByte.Sub(ex.upStart).Seconds())
	}
	if !ex.upEnd.IsZero() {
		m.total.WithLabelValues(ex.scheme).Observe(ex.upEnd.Sub(ex.upStart).Seconds())
	}
}

// statusClass is "2xx" for 200 to 299, and so on.
func statusClass(code int) string {
	return strconv.Itoa(code/100) + "xx"
}
