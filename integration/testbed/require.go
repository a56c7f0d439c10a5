package testbed

import (
	"os"
	"testing"
	"time"
)

// InCI reports whether the CI environment variable is set to a true value;
// then a missing server is a test failure instead of a skip.
func InCI() bool {
	switch os.Getenv("CI") {
	case "", "0", "false", "no":
		return false
	}
	return true
}

// Require probes the endpoint named name (a Check's Name, e.g. "vsftpd",
// "https", "line", or a Service) once. When it does not answer, the test is
// skipped, or fails when InCI.
func Require(t testing.TB, name string) {
	t.Helper()
	found := false
	for _, c := range Checks {
		if c.Name != name && c.Service != name {
			continue
		}
		found = true
		if err := c.Run(5 * time.Second); err != nil {
			msg := "test server " + c.Name + " at " + Addr(c.Port) + " not available (start it with integration/stack.sh up): " + err.Error()
			if InCI() {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	if !found {
		t.Fatalf("testbed.Require: unknown server %q", name)
	}
}
