package promtext

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// parse reads r's exposition with Prometheus's own parser: what a scraper
// would make of it.
func parse(t *testing.T, r *Registry) (map[string]*dto.MetricFamily, string) {
	t.Helper()
	var b bytes.Buffer
	if _, err := r.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatalf("Prometheus's parser refuses the exposition: %v\n%s", err, b.String())
	}
	return fams, b.String()
}

// labels is a sample's labels as name=value pairs joined by commas.
func labels(m *dto.Metric) string {
	var s []string
	for _, l := range m.GetLabel() {
		s = append(s, l.GetName()+"="+l.GetValue())
	}
	return strings.Join(s, ",")
}

func TestCountersGaugesAndLabels(t *testing.T) {
	r := &Registry{}
	c := r.NewCounterVec("b_total", "Counted.\nTwo lines, a \\ backslash.", "scheme", "status")
	g := r.NewGauge("a_in_flight", "Now.")
	r.NewGaugeFunc("c_slots", "Slots.", func() float64 { return 6 })
	c.Inc("gopher", "2xx")
	c.Add(2.5, "gopher", "2xx")
	c.Inc("", "4xx")
	odd := "q\"uote\\back\nline ünï"
	c.Inc(odd, "5xx")
	g.Inc()
	g.Inc()
	g.Dec()
	fams, text := parse(t, r)
	// Families come in the order of their names, as Prometheus's client
	// writes them, so that two scrapes of the same state are the same text.
	if a, b, cc := strings.Index(text, "a_in_flight"), strings.Index(text, "b_total"), strings.Index(text, "c_slots"); !(a < b && b < cc) {
		t.Errorf("families out of order:\n%s", text)
	}
	if got := fams["b_total"].GetHelp(); got != "Counted.\nTwo lines, a \\ backslash." {
		t.Errorf("help read back as %q", got)
	}
	if fams["b_total"].GetType() != dto.MetricType_COUNTER || fams["a_in_flight"].GetType() != dto.MetricType_GAUGE {
		t.Errorf("types: %v %v", fams["b_total"].GetType(), fams["a_in_flight"].GetType())
	}
	want := map[string]float64{"scheme=,status=4xx": 1, "scheme=gopher,status=2xx": 3.5, "scheme=" + odd + ",status=5xx": 1}
	got := map[string]float64{}
	for _, m := range fams["b_total"].GetMetric() {
		got[labels(m)] = m.GetCounter().GetValue()
	}
	if len(got) != len(want) {
		t.Errorf("counter samples %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("counter {%s} = %v, want %v (a label value must come back as it went in)", k, got[k], v)
		}
	}
	if v := fams["a_in_flight"].GetMetric()[0].GetGauge().GetValue(); v != 1 {
		t.Errorf("gauge %v, want 1", v)
	}
	if v := fams["c_slots"].GetMetric()[0].GetGauge().GetValue(); v != 6 {
		t.Errorf("gauge func %v, want 6", v)
	}
}

func TestHistogram(t *testing.T) {
	r := &Registry{}
	h := r.NewHistogramVec("t_seconds", "Times.", []float64{.001, .01, .1, 1}, "scheme")
	for _, v := range []float64{.0005, .001, .002, .05, .05, 3, 1} {
		h.Observe(v, "ftp")
	}
	h.Observe(.5, "gopher")
	fams, _ := parse(t, r)
	f := fams["t_seconds"]
	if f.GetType() != dto.MetricType_HISTOGRAM || len(f.GetMetric()) != 2 {
		t.Fatalf("family: %v", f)
	}
	ftp := f.GetMetric()[0].GetHistogram()
	if labels(f.GetMetric()[0]) != "scheme=ftp" {
		t.Fatalf("first sample %s, want scheme=ftp (sorted by label values)", labels(f.GetMetric()[0]))
	}
	// Cumulative: le=.001 holds .0005 and .001 (a bound is inclusive).
	wantCum := []uint64{2, 3, 5, 6, 7} // the last +Inf
	for i, b := range ftp.GetBucket() {
		if b.GetCumulativeCount() != wantCum[i] {
			t.Errorf("bucket le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), wantCum[i])
		}
	}
	if ftp.GetSampleCount() != 7 || math.Abs(ftp.GetSampleSum()-4.1035) > 1e-9 {
		t.Errorf("count %d sum %v, want 7 and 4.1035", ftp.GetSampleCount(), ftp.GetSampleSum())
	}
}

// TestConcurrentUpdates: counts made from many goroutines at once while
// scrapes run all arrive (run with -race).
func TestConcurrentUpdates(t *testing.T) {
	r := &Registry{}
	c := r.NewCounterVec("n_total", "N.", "k")
	h := r.NewHistogramVec("h_seconds", "H.", []float64{1}, "k")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				c.Inc([]string{"a", "b"}[i%2])
				h.Observe(.5, "a")
			}
		}()
	}
	for range 5 {
		r.WriteTo(&bytes.Buffer{})
	}
	wg.Wait()
	fams, _ := parse(t, r)
	var total float64
	for _, m := range fams["n_total"].GetMetric() {
		total += m.GetCounter().GetValue()
	}
	if total != 8000 || fams["h_seconds"].GetMetric()[0].GetHistogram().GetSampleCount() != 8000 {
		t.Errorf("counted %v and %d, want 8000 each", total, fams["h_seconds"].GetMetric()[0].GetHistogram().GetSampleCount())
	}
}

func TestMisuse(t *testing.T) {
	for name, f := range map[string]func(r *Registry){
		"a name twice":         func(r *Registry) { r.NewGauge("x", ""); r.NewGauge("x", "") },
		"a counter going down": func(r *Registry) { r.NewCounterVec("x", "").Add(-1) },
		"labels miscounted":    func(r *Registry) { r.NewCounterVec("x", "", "a").Inc() },
		"bounds not sorted":    func(r *Registry) { r.NewHistogramVec("x", "", []float64{2, 1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f(&Registry{})
		}()
	}
}

func TestRuntime(t *testing.T) {
	r := &Registry{}
	r.RegisterRuntime()
	fams, _ := parse(t, r)
	value := func(name string) float64 {
		f := fams[name]
		if f == nil {
			t.Fatalf("no %s", name)
		}
		m := f.GetMetric()[0]
		if f.GetType() == dto.MetricType_COUNTER {
			return m.GetCounter().GetValue()
		}
		return m.GetGauge().GetValue()
	}
	if v := value("go_goroutines"); v < 1 {
		t.Errorf("go_goroutines %v", v)
	}
	if v := value("go_memstats_heap_alloc_bytes"); v <= 0 {
		t.Errorf("go_memstats_heap_alloc_bytes %v", v)
	}
	if v := value("process_start_time_seconds"); v < 1.7e9 {
		t.Errorf("process_start_time_seconds %v", v)
	}
	if got := labels(fams["go_info"].GetMetric()[0]); got != "version="+runtime.Version() {
		t.Errorf("go_info %s", got)
	}
	if runtime.GOOS == "linux" {
		// The test binary holds stdin, stdout and stderr at least.
		if v := value("process_open_fds"); v < 3 || v > value("process_max_fds") {
			t.Errorf("process_open_fds %v (max %v)", v, value("process_max_fds"))
		}
		if v := value("process_resident_memory_bytes"); v < 1<<20 {
			t.Errorf("process_resident_memory_bytes %v", v)
		}
		if v := value("process_cpu_seconds_total"); v <= 0 {
			t.Errorf("process_cpu_seconds_total %v", v)
		}
	}
}
