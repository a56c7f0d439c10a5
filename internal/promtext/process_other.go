//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package promtext

// registerProcess registers nothing where the system's calls differ.
func registerProcess(r *Registry) {}
