package schemes

import (
	"strings"
	"testing"
)

// TestDefaultMailAddress: the environment first, in order, else user@host.
func TestDefaultMailAddress(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := DefaultMailAddress(getenv); !strings.Contains(got, "@") || got != localAddress() {
		t.Errorf("no environment: %q, want user@host", got)
	}
	env["EMAIL"] = "e@example.org"
	if got := DefaultMailAddress(getenv); got != "e@example.org" {
		t.Errorf("EMAIL: %q", got)
	}
	env["URLGET_EMAIL"] = "u@example.org"
	if got := DefaultMailAddress(getenv); got != "u@example.org" {
		t.Errorf("URLGET_EMAIL first: %q", got)
	}
}
