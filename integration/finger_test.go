//go:build integration

package integration

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urlget/urlget/integration/conformance"
	"github.com/urlget/urlget/integration/testbed"
)

// efingerd's replies (integration/servers/efingerd): it writes CRLF
// before a known user's reply and after every reply, and the scripts'
// lines end in LF. urlget hands them over byte for byte.
const (
	fingerPlan = "\r\nLogin: plan\nProject: Testing urlget.\nPlan:\nFinger me: the plan is\nto answer byte for byte.\n\r\n"
	// fingerPlanLong is the /W reply, which efingerd passes to the
	// nouser script as "_W_plan" (efingerd does not parse /W itself):
	// no leading CRLF.
	fingerPlanLong = "Login: plan\nDirectory: /home/plan\nProject: Testing urlget.\nPlan:\nFinger me: the plan is\nto answer byte for byte.\n\r\n"
	fingerList     = "Login    Plan\nbig      yes\nplan     yes\n\r\n"
	// fingerBigLen is the reply for the user "big": a 1 MiB .plan after
	// its header, more than finger's default bound.
	fingerBigLen = 2 + len("Login: big\nProject: big\nPlan:\n") + 1<<20 + 2
)

func fingerURL(path string) string { return "finger://" + testbed.Addr(testbed.FingerPort) + path }

// fingerQueries returns the queries efingerd was asked since the log had
// n lines, and the number of lines now, leaving out "plan": the health
// check's query, which the compose health check sends every second.
func fingerQueries(t *testing.T, n int) ([]string, int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testbed.LogDir(testbed.Finger), "queries.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var asked []string
	for _, l := range lines[min(n, len(lines)):] {
		if l != "plan" {
			asked = append(asked, l)
		}
	}
	return asked, len(lines)
}

// TestConformanceFinger runs the query suite against efingerd.
func TestConformanceFinger(t *testing.T) {
	testbed.Require(t, testbed.Finger)
	conformance.RunQueries(t, conformance.QueryTarget{
		Name: "efingerd", URL: fingerURL("/plan"), Reply: []byte(fingerPlan), BigURL: fingerURL("/big"),
	})
}

// TestFingerReplies: the reply on stdout byte for byte, for a user, the
// long form (lynx's w/ and RFC 1288's own /W), and the list of users.
func TestFingerReplies(t *testing.T) {
	testbed.Require(t, testbed.Finger)
	for _, tc := range []struct{ path, want string }{
		{"/plan", fingerPlan},
		{"/w/plan", fingerPlanLong},
		{"/W/plan", fingerPlanLong},
		{"/%2FW%20plan", fingerPlanLong},
		{"/", fingerList},
	} {
		out, code := runURLGetOutput(t, t.TempDir(), fingerURL(tc.path))
		if code != 0 || out != tc.want {
			t.Errorf("%s: exit %d, stdout %q; want 0 and %q", tc.path, code, out, tc.want)
		}
	}
}

// TestFingerForwardingRefused: user@host is refused before anything is
// sent (exit 7: efingerd is never asked), and sent as typed with
// --finger-forward.
func TestFingerForwardingRefused(t *testing.T) {
	testbed.Require(t, testbed.Finger)
	_, n := fingerQueries(t, 0)
	u := fingerURL("/plan@127.0.0.1")
	out, code := runURLGetOutput(t, t.TempDir(), u)
	if code != 7 || out != "" {
		t.Errorf("without --finger-forward: exit %d, stdout %q; want 7 and nothing", code, out)
	}
	if asked, _ := fingerQueries(t, n); len(asked) != 0 {
		t.Errorf("the server was asked %q", asked)
	}
	out, code = runURLGetOutput(t, t.TempDir(), "--finger-forward", u)
	// efingerd makes every byte but letters, digits, "." and "-" a "_".
	if want := "finger: plan_127.0.0.1: no such user.\n\r\n"; code != 0 || out != want {
		t.Errorf("with --finger-forward: exit %d, stdout %q; want 0 and %q", code, out, want)
	}
	if asked, _ := fingerQueries(t, n); len(asked) != 1 || asked[0] != "plan_127.0.0.1" {
		t.Errorf("the server was asked %q, want the forwarding query once", asked)
	}
}

// TestFingerBoundedReply: a reply longer than --finger-max fails with
// exit 6 after that many bytes; the default bound (1 MiB) stops the
// user "big" too, and a large enough bound lets it through.
func TestFingerBoundedReply(t *testing.T) {
	testbed.Require(t, testbed.Finger)
	out, code := runURLGetOutput(t, t.TempDir(), "--finger-max", "1000", fingerURL("/big"))
	if code != 6 || len(out) > 1000 {
		t.Errorf("--finger-max 1000: exit %d, %d bytes; want 6 and at most 1000", code, len(out))
	}
	if _, code = runURLGetOutput(t, t.TempDir(), fingerURL("/big")); code != 6 {
		t.Errorf("default bound: exit %d, want 6", code)
	}
	out, code = runURLGetOutput(t, t.TempDir(), "--finger-max", "2000000", fingerURL("/big"))
	if code != 0 || len(out) != fingerBigLen {
		t.Errorf("--finger-max 2000000: exit %d, %d bytes; want 0 and %d", code, len(out), fingerBigLen)
	}
}

// TestFingerNoSecondLine: a user name that would end the query line is
// refused before anything is dialed (exit 2, naming the part).
func TestFingerNoSecondLine(t *testing.T) {
	testbed.Require(t, testbed.Finger)
	_, n := fingerQueries(t, 0)
	for _, p := range []string{"/big%0D%0Aplan", "/big%0Aplan", "/big%09plan", "/big%20plan"} {
		out, code := runURLGetOutput(t, t.TempDir(), fingerURL(p))
		if code != 2 || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", p, code, out)
		}
	}
	if asked, _ := fingerQueries(t, n); len(asked) != 0 {
		t.Errorf("the server was asked %q", asked)
	}
}

// TestFingerExplainAndJSON: --explain shows the query line without
// sending it; --json reports the transfer.
func TestFingerExplainAndJSON(t *testing.T) {
	testbed.Require(t, testbed.Finger)
	_, n := fingerQueries(t, 0)
	out, code := runURLGetOutput(t, t.TempDir(), "--explain", fingerURL("/W/plan"))
	if code != 0 || !strings.Contains(out, `send "/W plan\r\n"`) {
		t.Errorf("--explain: exit %d, %q", code, out)
	}
	if asked, _ := fingerQueries(t, n); len(asked) != 0 {
		t.Errorf("--explain asked the server %q", asked)
	}
	dir := t.TempDir()
	out, code = runURLGetOutput(t, dir, "--json", "-o", "reply.txt", fingerURL("/plan"))
	if code != 0 {
		t.Fatalf("--json: exit %d, %q", code, out)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rec); err != nil {
		t.Fatalf("--json output %q: %v", out, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "reply.txt")); err != nil || string(b) != fingerPlan {
		t.Errorf("-o reply.txt: %q, %v", b, err)
	}
}
