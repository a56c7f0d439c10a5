//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package promtext

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// registerProcess registers what the system tells of the process.
func registerProcess(r *Registry) {
	r.NewCounterFunc("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", func() float64 {
		var u syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
			return 0
		}
		return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
	})
	r.NewGaugeFunc("process_max_fds", "Maximum number of open file descriptors.", func() float64 {
		var l syscall.Rlimit
		if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) != nil {
			return 0
		}
		return float64(l.Cur)
	})
	// /proc is Linux's (and some BSDs' when mounted): without it these two
	// are left out rather than written as zeros.
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		return
	}
	r.NewGaugeFunc("process_resident_memory_bytes", "Resident memory size in bytes.", func() float64 {
		b, err := os.ReadFile("/proc/self/statm")
		if err != nil {
			return 0
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return 0
		}
		pages, _ := strconv.ParseFloat(f[1], 64)
		return pages * float64(os.Getpagesize())
	})
	r.NewGaugeFunc("process_open_fds", "Number of open file descriptors.", func() float64 {
		d, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			return 0
		}
		return float64(len(d) - 1) // less the one ReadDir held open
	})
}
