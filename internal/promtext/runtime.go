package promtext

import (
	"runtime"
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
		memStat(func(m *runtime.MemStats) uint64 { return m.HeapAlloc }))
	r.NewGaugeFunc("go_memstats_sys_bytes", "Number of bytes obtained from the system.",
		memStat(func(m *runtime.MemStats) uint64 { return m.Sys }))
	r.NewCounterFunc("go_gc_cycles_total", "Count of completed GC cycles.",
		memStat(func(m *runtime.MemStats) uint64 { return uint64(m.NumGC) }))
	r.NewGaugeFunc("process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
		func() float64 { return float64(started.UnixNano()) / 1e9 })
	registerProcess(r)
}

// memStat reads one of runtime.MemStats' fields. ReadMemStats stops the
// world for some microseconds, which a scrape every few seconds can
// afford; runtime/metrics would not, but its package initialiser would
// run at every start of urlget.
func memStat(field func(*runtime.MemStats) uint64) func() float64 {
	return func() float64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(field(&m))
	}
}
