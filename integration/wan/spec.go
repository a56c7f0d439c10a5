package wan

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"
)

// Spec is a wide-area link as the WAN proxies imitate it.
//
// What the figures mean, exactly (toxiproxy's latency and bandwidth
// toxics, see Toxics):
//   - RTT is the round trip of a message: every chunk of bytes a peer
//     sends is delivered RTT/2 after toxiproxy read it, in each direction,
//     so a request and its reply take RTT more than on loopback.
//   - Connection set-up: toxiproxy accepts on loopback and dials the
//     server at once, so by itself it makes a new connection cost one
//     round trip less than a real link (SYN, SYN-ACK), and a server's
//     greeting arrive RTT/2 after the connect instead of 2×RTT. The
//     "handshake" toxic of the test bed's toxiproxyd
//     (integration/cmd/toxiproxyd) puts that round trip back: it holds
//     a connection's first bytes upstream until RTT after the accept
//     and downstream until 3/2 RTT, so a first request reaches the
//     server at 3/2 RTT and a greeting reaches the client at 2×RTT, as
//     over a real link. A toxiproxy without it (one started before the
//     toxic existed) gets the WAN without it (WAN.Handshake false).
//   - Jitter spreads each one-way delay uniformly over RTT/2 ± Jitter/2,
//     so a round trip lies within RTT ± Jitter (mean RTT). Delivery stays
//     in order: a chunk never overtakes the one before it.
//   - Rate is the bandwidth of each connection in each direction, in
//     bytes per second: every connection has a limit of its own (a second
//     connection to the same server gets Rate as well), as a per-flow
//     limit or a fair share of a fat link behaves.
//
// The zero Spec is loopback: no delay and no limit.
type Spec struct {
	// RTT is the round-trip time added to every exchange; a whole, even
	// number of milliseconds (toxiproxy delays by whole milliseconds in
	// each direction).
	RTT time.Duration
	// Jitter is the spread of the round trip (± Jitter around RTT); a
	// whole, even number of milliseconds, at most RTT.
	Jitter time.Duration
	// Rate is each connection's bandwidth in each direction, in bytes per
	// second (0: unlimited), at least 1000; toxiproxy applies it rounded
	// to its unit of 1000 bytes a second (20 MiB/s: 20,972 KB/s, 0.002 %
	// more).
	Rate int64
}

// Rate units accepted by ParseSpec, per second.
var rateUnits = map[string]int64{
	"B": 1, "KB": 1000, "MB": 1000 * 1000, "GB": 1000 * 1000 * 1000,
	"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
}

// ParseSpec reads a WAN spec: comma-separated parts in any order, a
// round trip with an optional jitter ("40ms", "40ms±6ms", "40ms+-6ms")
// and a per-connection rate ("20MiB/s", "500KB/s"; units B, KB, MB, GB
// of 1000 and KiB, MiB, GiB of 1024). "" and "off" are the zero Spec.
func ParseSpec(s string) (Spec, error) {
	var sp Spec
	s = strings.TrimSpace(s)
	if s == "" || s == "off" {
		return sp, nil
	}
	seenRTT, seenRate := false, false
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if rate, ok := strings.CutSuffix(part, "/s"); ok {
			if seenRate {
				return Spec{}, fmt.Errorf("wan spec %q: two rates", s)
			}
			seenRate = true
			r, err := parseRate(rate)
			if err != nil {
				return Spec{}, fmt.Errorf("wan spec %q: %w", s, err)
			}
			sp.Rate = r
			continue
		}
		if seenRTT {
			return Spec{}, fmt.Errorf("wan spec %q: two round trips", s)
		}
		seenRTT = true
		rtt, jit, hasJitter := strings.Cut(part, "±")
		if !hasJitter {
			rtt, jit, hasJitter = strings.Cut(part, "+-")
		}
		var err error
		if sp.RTT, err = parseMillis(rtt); err != nil {
			return Spec{}, fmt.Errorf("wan spec %q: round trip: %w", s, err)
		}
		if hasJitter {
			if sp.Jitter, err = parseMillis(jit); err != nil {
				return Spec{}, fmt.Errorf("wan spec %q: jitter: %w", s, err)
			}
		}
	}
	if sp.Jitter > sp.RTT {
		return Spec{}, fmt.Errorf("wan spec %q: jitter above the round trip", s)
	}
	return sp, nil
}

// parseMillis reads a duration that splits into two whole milliseconds.
func parseMillis(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil:
		return 0, err
	case d < 0:
		return 0, fmt.Errorf("%s is negative", s)
	case d%(2*time.Millisecond) != 0:
		return 0, fmt.Errorf("%s is not a whole even number of milliseconds (half of it goes each way, in whole milliseconds)", s)
	}
	return d, nil
}

// parseRate reads "20MiB" (per second implied) as bytes per second.
func parseRate(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i <= 0 {
		return 0, fmt.Errorf("rate %q: want a number and a unit, such as 20MiB/s", s)
	}
	unit, ok := rateUnits[s[i:]]
	if !ok {
		return 0, fmt.Errorf("rate %q: unit %q is none of B, KB, MB, GB, KiB, MiB, GiB", s, s[i:])
	}
	n, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, fmt.Errorf("rate %q: %w", s, err)
	}
	r := int64(n*float64(unit) + 0.5)
	if r < 1000 {
		return 0, fmt.Errorf("rate %q is below 1000 B/s", s)
	}
	return r, nil
}

// String is the spec in ParseSpec's syntax ("off" for loopback), the rate
// in MiB/s or KiB/s when it is a whole number of them.
func (s Spec) String() string {
	var parts []string
	if s.RTT > 0 || s.Jitter > 0 {
		p := s.RTT.String()
		if s.Jitter > 0 {
			p += "±" + s.Jitter.String()
		}
		parts = append(parts, p)
	}
	if s.Rate > 0 {
		switch {
		case s.Rate%(1<<20) == 0:
			parts = append(parts, fmt.Sprintf("%dMiB/s", s.Rate>>20))
		case s.Rate%(1<<10) == 0:
			parts = append(parts, fmt.Sprintf("%dKiB/s", s.Rate>>10))
		default:
			parts = append(parts, fmt.Sprintf("%dB/s", s.Rate))
		}
	}
	if len(parts) == 0 {
		return "off"
	}
	return strings.Join(parts, ",")
}

// handshakeType is the test bed toxiproxyd's own toxic type (see Spec).
const handshakeType = "handshake"

func handshakeName(dir string) string { return "wan-handshake-" + dir }

// Toxics returns the toxics that make a proxy the link s (Stream
// "upstream" is toward the server, "downstream" toward the client), in the order
// they must be added: in each direction the handshake first (see Spec),
// then the latency, then the bandwidth. That order adds them as a real
// link does: the handshake releases the first bytes with a fresh
// timestamp, from which toxiproxy's
// latency toxic holds a chunk until RTT/2 after it was read, then the
// bandwidth toxic spaces the chunks at Rate; the other way round, time
// spent queueing for bandwidth would count toward the delay and hide it.
// The latency toxic counts in whole milliseconds and the bandwidth toxic
// in KB/s of 1000 bytes (toxiproxy 2.5's toxics/latency.go and
// toxics/bandwidth.go).
func (s Spec) Toxics() []toxiproxy.Toxic {
	var ts []toxiproxy.Toxic
	for _, dir := range []string{"upstream", "downstream"} {
		if s.RTT > 0 {
			hold := s.RTT // upstream: the first bytes leave after SYN and SYN-ACK
			if dir == "downstream" {
				hold += s.RTT / 2 // the server sees the connection after the ACK
			}
			ts = append(ts, toxiproxy.Toxic{Name: handshakeName(dir), Type: handshakeType, Stream: dir, Toxicity: 1,
				Attributes: toxiproxy.Attributes{"delay": hold.Milliseconds()}})
		}
		if s.RTT > 0 || s.Jitter > 0 {
			ts = append(ts, toxiproxy.Toxic{Name: "wan-latency-" + dir, Type: "latency", Stream: dir, Toxicity: 1, Attributes: toxiproxy.Attributes{
				"latency": (s.RTT / 2).Milliseconds(),
				"jitter":  (s.Jitter / 2).Milliseconds(),
			}})
		}
		if s.Rate > 0 {
			ts = append(ts, toxiproxy.Toxic{Name: "wan-bandwidth-" + dir, Type: "bandwidth", Stream: dir, Toxicity: 1, Attributes: toxiproxy.Attributes{
				"rate": (s.Rate + 500) / 1000,
			}})
		}
	}
	return ts
}
