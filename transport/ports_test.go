package transport

import (
	"errors"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

func TestCheckPort(t *testing.T) {
	tests := []struct {
		scheme string
		port   int
		allow  []int
		kind   schemes.Kind // KindOther: allowed
		msg    string
	}{
		{"gopher", 70, nil, schemes.KindOther, ""},
		{"http", 80, nil, schemes.KindOther, ""},
		{"http", 8080, nil, schemes.KindOther, ""},
		{"gopher", 25, nil, schemes.KindSafety, "port 25 is reserved for smtp; refusing to send gopher requests there"},
		{"gopher", 25, []int{25}, schemes.KindOther, ""},
		{"gopher", 25, []int{119}, schemes.KindSafety, ""},
		{"http", 119, nil, schemes.KindSafety, "reserved for nntp"},
		{"nntp", 119, nil, schemes.KindOther, ""},
		{"news", 119, nil, schemes.KindOther, ""},
		{"nntps", 563, nil, schemes.KindOther, ""},
		{"news", 563, nil, schemes.KindOther, ""},
		{"http", 563, nil, schemes.KindSafety, ""},
		{"ftp", 21, nil, schemes.KindOther, ""},
		{"ftp", 20, nil, schemes.KindOther, ""},
		{"ftp", 25, nil, schemes.KindSafety, "reserved for smtp"}, // PASV pointing at a mail server
		{"ftp", 990, nil, schemes.KindSafety, ""},
		{"ftps", 990, nil, schemes.KindOther, ""},
		{"ftps", 989, nil, schemes.KindOther, ""},
		{"ftps", 21, nil, schemes.KindSafety, ""},
		{"telnet", 23, nil, schemes.KindOther, ""},
		{"tn3270", 23, nil, schemes.KindOther, ""},
		{"gopher", 23, nil, schemes.KindSafety, "reserved for telnet"},
		{"rlogin", 513, nil, schemes.KindOther, ""},
		{"mailto", 25, nil, schemes.KindOther, ""},
		{"smtp", 465, nil, schemes.KindOther, ""},
		{"mailto", 587, nil, schemes.KindOther, ""},
		{"http", 587, nil, schemes.KindSafety, ""},
		{"wais", 210, nil, schemes.KindOther, ""},
		{"prospero", 1525, nil, schemes.KindOther, ""},
		{"http", 22, nil, schemes.KindSafety, "reserved for ssh"},
		{"http", 6667, nil, schemes.KindSafety, "reserved for irc"},
		{"http", 6665, nil, schemes.KindSafety, ""},
		{"http", 6670, nil, schemes.KindOther, ""},
		{"http", 10080, nil, schemes.KindSafety, ""},
		{"gopher", 1, nil, schemes.KindSafety, ""},
		{"gopher", 0, nil, schemes.KindUsage, "out of range"},
		{"gopher", 65536, nil, schemes.KindUsage, ""},
		{"gopher", 65535, nil, schemes.KindOther, ""},
	}
	for _, tt := range tests {
		err := CheckPort(tt.scheme, tt.port, tt.allow)
		if tt.kind == schemes.KindOther {
			if err != nil {
				t.Errorf("CheckPort(%q, %d, %v) = %v, want nil", tt.scheme, tt.port, tt.allow, err)
			}
			continue
		}
		var se *schemes.Error
		if !errors.As(err, &se) {
			t.Errorf("CheckPort(%q, %d, %v) = %v, want *schemes.Error", tt.scheme, tt.port, tt.allow, err)
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
