//go:build integration

package integration

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/integration/testbed"
)

// prosperoExchangeBound is schemes/prospero's exchangeTimeout: how long
// one ARDP exchange may take when the caller sets no deadline.
const prosperoExchangeBound = 2 * time.Minute

// TestProsperoHostile (issue 21): the built urlget against dirsrv's
// hostile switches, with and without --timeout. A redirect loop stops
// after 4 redirects (exit 6; the server counts at most 5 packets), a
// redirect to multicast is refused (exit 7; the server got the one
// request), a broken header is exit 6; a wait of 65535 s and a packet
// resent every 2 s end by --timeout, or without it by the exchange's
// bound (exit 5) — before, each held urlget forever.
func TestProsperoHostile(t *testing.T) {
	testbed.Require(t, testbed.Prospero)
	for _, tc := range []struct {
		sw, timeout string
		exit        int
		within      time.Duration
		say         string
		maxPackets  int // 0: not checked
	}{
		{"redirectloop", "", 6, 10 * time.Second, "more than 4 redirects", 5},
		{"redirectmcast", "", 7, 10 * time.Second, "multicast", 1},
		{"badpacket", "", 6, 10 * time.Second, "header of 9 octets in a packet of 3", 1},
		{"waitlong", "3", 5, 3*time.Second + 5*time.Second, "--max-time 3s expired", 0},
		{"trickle", "3", 5, 3*time.Second + 5*time.Second, "--max-time 3s expired", 0},
		// Without --timeout: the wait is capped at 60 s and the exchange
		// at 2 minutes; the duplicates no longer restart the ISI schedule,
		// which gives up after about a minute.
		{"waitlong", "", 5, prosperoExchangeBound + 15*time.Second, "bound on one ARDP exchange", 0},
		{"trickle", "", 5, prosperoExchangeBound + 15*time.Second, "no reply from the server", 0},
	} {
		name := tc.sw + " without --timeout"
		if tc.timeout != "" {
			name = tc.sw + " --timeout " + tc.timeout
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tag := fmt.Sprintf("h%s%d", tc.sw, time.Now().UnixNano())
			args := []string{prosperoURL("/switch/" + tc.sw + "/" + tag)}
			if tc.timeout != "" {
				args = append([]string{"--timeout", tc.timeout}, args...)
			}
			// Killed a while after the bound: a hang fails the test.
			r := startURLGetWithin(t, tc.within+30*time.Second, "", args...)()
			t.Logf("exit %d after %v: %s", r.code, r.took.Round(10*time.Millisecond), strings.TrimSpace(r.stderr))
			if r.code != tc.exit || !strings.Contains(r.stderr, tc.say) {
				t.Errorf("exit %d, %q; want exit %d saying %q", r.code, r.stderr, tc.exit, tc.say)
			}
			if r.took > tc.within {
				t.Errorf("took %v, want at most %v", r.took, tc.within)
			}
			if tc.maxPackets == 0 {
				return
			}
			c, _, _ := prosperoClient(t)
			b, _, err := prosperoGet(t, c, prosperoURL("/switch/count/"+tag))
			n, nerr := strconv.Atoi(string(b))
			t.Logf("dirsrv got %d packets", n)
			if err != nil || nerr != nil || n < 1 || n > tc.maxPackets {
				t.Errorf("dirsrv counted %q packets (%v), want 1 to %d", b, err, tc.maxPackets)
			}
		})
	}
}
