package wan

import (
	"reflect"
	"strings"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"
)

func TestParseSpec(t *testing.T) {
	const ms = time.Millisecond
	tests := []struct {
		in      string
		want    Spec
		str     string
		wantErr string
	}{
		{in: "", want: Spec{}, str: "off"},
		{in: "off", want: Spec{}, str: "off"},
		{in: "40ms,20MiB/s", want: Spec{RTT: 40 * ms, Rate: 20 << 20}, str: "40ms,20MiB/s"},
		{in: "20MiB/s, 40ms", want: Spec{RTT: 40 * ms, Rate: 20 << 20}, str: "40ms,20MiB/s"},
		{in: "40ms±6ms,20MiB/s", want: Spec{RTT: 40 * ms, Jitter: 6 * ms, Rate: 20 << 20}, str: "40ms±6ms,20MiB/s"},
		{in: "40ms+-6ms", want: Spec{RTT: 40 * ms, Jitter: 6 * ms}, str: "40ms±6ms"},
		{in: "0.1s", want: Spec{RTT: 100 * ms}, str: "100ms"},
		{in: "500KB/s", want: Spec{Rate: 500000}, str: "500000B/s"},
		{in: "1.5MiB/s", want: Spec{Rate: 3 << 19}, str: "1536KiB/s"},
		{in: "41ms", wantErr: "even number of milliseconds"},
		{in: "40ms±1ms", wantErr: "even number of milliseconds"},
		{in: "40ms±60ms", wantErr: "jitter above the round trip"},
		{in: "40ms,50ms", wantErr: "two round trips"},
		{in: "1MiB/s,2MiB/s", wantErr: "two rates"},
		{in: "20Mbit/s", wantErr: "unit"},
		{in: "MiB/s", wantErr: "a number and a unit"},
		{in: "500B/s", wantErr: "below 1000 B/s"},
		{in: "fast", wantErr: "round trip"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSpec(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseSpec(%q) = %+v, %v; want an error with %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseSpec(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			}
			if s := got.String(); s != tt.str {
				t.Errorf("String() = %q, want %q", s, tt.str)
			}
		})
	}
}

// The toxics put half the round trip and half the jitter on each
// direction, after the handshake (the first bytes held a round trip
// upstream, one and a half downstream) and before the bandwidth, the rate
// in toxiproxy's KB/s of 1000 bytes (rounded).
func TestSpecToxics(t *testing.T) {
	hs := func(dir string, d int64) toxiproxy.Toxic {
		return toxiproxy.Toxic{Name: "wan-handshake-" + dir, Type: "handshake", Stream: dir, Toxicity: 1,
			Attributes: toxiproxy.Attributes{"delay": d}}
	}
	lat := func(dir string, l, j int64) toxiproxy.Toxic {
		return toxiproxy.Toxic{Name: "wan-latency-" + dir, Type: "latency", Stream: dir, Toxicity: 1,
			Attributes: toxiproxy.Attributes{"latency": l, "jitter": j}}
	}
	bw := func(dir string, r int64) toxiproxy.Toxic {
		return toxiproxy.Toxic{Name: "wan-bandwidth-" + dir, Type: "bandwidth", Stream: dir, Toxicity: 1,
			Attributes: toxiproxy.Attributes{"rate": r}}
	}
	tests := []struct {
		spec string
		want []toxiproxy.Toxic
	}{
		{"off", nil},
		{"40ms±6ms,20MiB/s", []toxiproxy.Toxic{
			hs("upstream", 40), lat("upstream", 20, 3), bw("upstream", 20972),
			hs("downstream", 60), lat("downstream", 20, 3), bw("downstream", 20972)}},
		{"100ms", []toxiproxy.Toxic{hs("upstream", 100), lat("upstream", 50, 0), hs("downstream", 150), lat("downstream", 50, 0)}},
		{"4MiB/s", []toxiproxy.Toxic{bw("upstream", 4194), bw("downstream", 4194)}},
	}
	for _, tt := range tests {
		sp, err := ParseSpec(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := sp.Toxics(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Toxics() =\n%+v\nwant\n%+v", tt.spec, got, tt.want)
		}
	}
}

// Every WAN proxy's name starts with its host's prefix, and no other
// host's prefix matches it (127.0.0.2 vs 127.0.0.20), so that Down
// deletes exactly its own.
func TestNamePrefix(t *testing.T) {
	a, b := namePrefix("127.0.0.2"), namePrefix("127.0.0.20")
	if strings.HasPrefix(b+"8080", a) || strings.HasPrefix(a+"8080", b) {
		t.Errorf("prefixes %q and %q overlap", a, b)
	}
}
