package promtext

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// started is when the process started, near enough: package variables
// are set before main runs.
var started = time.Now()

// RegisterRuntime registers the Go runtime's and the process's own
// metrics under the names Prometheus's Go client gives them, so that
// dashboards made for Go programs read them: go_goroutines, go_threads,
// go_info, go_memstats_heap_alloc_bytes, go_memstats_sys_bytes,
// go_gc_cycles_total, process_cpu_seconds_total,
// process_start_time_seconds, process_max_fds, and where the system
// tells them (Linux) process_resident_memory_bytes and process_open_fds.
func (r *Registry) RegisterRuntime() {
	r.NewGaugeFunc("go_goroutines", "Number of goroutines that currently exist.",
		func() float64 { return float64(runtime.NumGoroutine()) })
	r.NewGaugeFunc("go_threads", "Number of OS threads created.", func() float64 {
		n, _ := runtime.ThreadCreateProfile(nil)
		return float64(n)
	})
	r.add(family{name: "go_info", help: "Information about the Go environment.", typ: "gauge",
		write: func(w *writer, name string) {
			w.sample(name, []string{"version"}, []string{runtime.Version()}, "", "", 1)
		}})
	r.NewGaugeFunc("go_memstats_heap_alloc_bytes", "Number of heap bytes allocated and still in use.",
		runtimeMetric("/memory/classes/heap/objects:bytes"))
	r.NewGaugeFunc("go_memstats_sys_bytes", "Number of bytes obtained from the system.",
		runtimeMetric("/memory/classes/total:bytes"))
	r.NewCounterFunc("go_gc_cycles_total", "Count of completed GC cycles.",
		runtimeMetric("/gc/cycles/total:gc-cycles"))
	r.NewGaugeFunc("process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
		func() float64 { return float64(started.UnixNano()) / 1e9 })
	registerProcess(r)
}

// runtimeMetric reads one of runtime/metrics' values (cheap: no
// stop-the-world, unlike runtime.ReadMemStats).
func runtimeMetric(name string) func() float64 {
	return func() float64 {
		s := []metrics.Sample{{Name: name}}
		metrics.Read(s)
		switch s[0].Value.Kind() {
		case metrics.KindUint64:
			return float64(s[0].Value.Uint64())
		case metrics.KindFloat64:
			return s[0].Value.Float64()
		}
		return 0
	}
}
