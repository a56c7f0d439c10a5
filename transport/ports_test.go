package transport

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// testPorts are port facts written out for the policy's tests: a
// scheme's default port first, then the others it owns (0 first: none).
// The real ones are the schemes' declarations, which schemes/all's
// TestDeclaredPorts holds to the policy.
type testPorts map[string][]int

// DefaultPort is the first port listed for scheme.
func (p testPorts) DefaultPort(scheme string) int {
	if ps := p[scheme]; len(ps) > 0 {
		return ps[0]
	}
	return 0
}

// OwnsPort reports whether port is listed for scheme.
func (p testPorts) OwnsPort(scheme string, port int) bool {
	return port != 0 && slices.Contains(p[scheme], port)
}

// policyPorts are the facts TestCheckPort's rows assume: a web-like
// scheme on an open port, a news-like one with a default and another
// restricted port, a mail-like one that owns ports without a default.
var policyPorts = testPorts{"x-web": {80}, "x-news": {119, 563}, "x-mail": {0, 25, 465, 587}}

func TestCheckPort(t *testing.T) {
	tests := []struct {
		scheme string
		port   int
		allow  []int
		kind   schemes.Kind // KindOther: allowed
		msg    string
	}{
		{"x-web", 80, nil, schemes.KindOther, ""},
		{"x-web", 8080, nil, schemes.KindOther, ""},
		{"x-web", 25, nil, schemes.KindSafety, "port 25 is reserved for smtp; refusing to send x-web requests there"},
		{"x-web", 25, []int{25}, schemes.KindOther, ""},
		{"x-web", 25, []int{119}, schemes.KindSafety, ""},
		{"x-web", 119, nil, schemes.KindSafety, "reserved for nntp"},
		{"x-news", 119, nil, schemes.KindOther, ""},
		{"x-news", 563, nil, schemes.KindOther, ""},
		{"x-web", 563, nil, schemes.KindSafety, ""},
		{"x-news", 25, nil, schemes.KindSafety, "reserved for smtp"},
		{"x-mail", 25, nil, schemes.KindOther, ""},
		{"x-mail", 465, nil, schemes.KindOther, ""},
		{"x-mail", 587, nil, schemes.KindOther, ""},
		{"x-mail", 119, nil, schemes.KindSafety, ""},
		{"x-web", 587, nil, schemes.KindSafety, ""},
		{"x-unknown", 119, nil, schemes.KindSafety, ""},
		{"x-unknown", 70, nil, schemes.KindOther, ""},
		{"x-web", 22, nil, schemes.KindSafety, "reserved for ssh"},
		{"x-web", 6667, nil, schemes.KindSafety, "reserved for irc"},
		{"x-web", 6665, nil, schemes.KindSafety, ""},
		{"x-web", 6670, nil, schemes.KindOther, ""},
		{"x-web", 10080, nil, schemes.KindSafety, ""},
		{"x-web", 1, nil, schemes.KindSafety, ""},
		{"x-web", 0, nil, schemes.KindUsage, "out of range"},
		{"x-web", 65536, nil, schemes.KindUsage, ""},
		{"x-web", 65535, nil, schemes.KindOther, ""},
	}
	for _, tt := range tests {
		d := &Dialer{Ports: policyPorts, AllowPorts: tt.allow}
		err := d.CheckPort(tt.scheme, tt.port)
		if tt.kind == schemes.KindOther {
			if err != nil {
				t.Errorf("CheckPort(%q, %d) with %v allowed = %v, want nil", tt.scheme, tt.port, tt.allow, err)
			}
			continue
		}
		var se *schemes.Error
		if !errors.As(err, &se) {
			t.Errorf("CheckPort(%q, %d) with %v allowed = %v, want *schemes.Error", tt.scheme, tt.port, tt.allow, err)
			continue
		}
		if se.Kind != tt.kind || se.Part != "port" || se.Phase != "dial" || se.Scheme != tt.scheme {
			t.Errorf("CheckPort(%q, %d) = %+v, want kind %v part port phase dial", tt.scheme, tt.port, se, tt.kind)
		}
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("CheckPort(%q, %d) = %q, want it to contain %q", tt.scheme, tt.port, err, tt.msg)
		}
	}
}

// TestPortWithoutPorts: a Dialer without port facts lets no scheme use a
// restricted port but those allowed, and knows no default port.
func TestPortWithoutPorts(t *testing.T) {
	tests := []struct {
		port, want int
		allow      []int
		kind       schemes.Kind // KindOther: allowed
	}{
		{8080, 8080, nil, schemes.KindOther},
		{119, 119, nil, schemes.KindSafety},
		{119, 119, []int{119}, schemes.KindOther},
		{0, 0, nil, schemes.KindUsage},
	}
	for _, tt := range tests {
		d := &Dialer{AllowPorts: tt.allow}
		got, err := d.port("x-news", tt.port)
		if got != tt.want || (err == nil) != (tt.kind == schemes.KindOther) || (err != nil && schemes.KindOf(err) != tt.kind) {
			t.Errorf("port(%d) with %v allowed = %d, %v; want %d, kind %v", tt.port, tt.allow, got, err, tt.want, tt.kind)
		}
	}
}

// TestPortDefault: port 0 is the scheme's default, to which the policy
// then applies.
func TestPortDefault(t *testing.T) {
	d := &Dialer{Ports: policyPorts}
	for scheme, want := range map[string]int{"x-web": 80, "x-news": 119} {
		if got, err := d.port(scheme, 0); got != want || err != nil {
			t.Errorf("port(%q, 0) = %d, %v; want %d", scheme, got, err, want)
		}
	}
	if _, err := d.port("x-mail", 0); schemes.KindOf(err) != schemes.KindUsage {
		t.Errorf("port 0 of a scheme without a default: %v, want a usage error", err)
	}
}

// TestRestrictedPortsList checks the table against the WHATWG list as
// published, so an edit cannot silently drop a port.
func TestRestrictedPortsList(t *testing.T) {
	want := []int{1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103,
		104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
		526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659,
		4045, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 10080}
	if len(restrictedPorts) != len(want) {
		t.Errorf("restrictedPorts has %d entries, want %d", len(restrictedPorts), len(want))
	}
	for _, p := range want {
		if proto, ok := reservedFor(p); !ok || proto == "" {
			t.Errorf("port %d missing or unnamed", p)
		}
	}
	if _, ok := reservedFor(70); ok {
		t.Error("port 70 (gopher) must not be restricted")
	}
}
