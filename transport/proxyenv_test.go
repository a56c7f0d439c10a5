package transport

import (
	"strings"
	"testing"
)

var proxyVars = []string{"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "ftp_proxy", "FTP_PROXY",
	"gopher_proxy", "GOPHER_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"}

func TestProxyFromEnvironment(t *testing.T) {
	tests := []struct {
		name   string
		env    map[string]string
		scheme string
		host   string
		port   int
		want   string // "" = direct
	}{
		{"nothing set", nil, "http", "example.com", 80, ""},
		{"http_proxy", map[string]string{"http_proxy": "http://p:3128"}, "http", "example.com", 80, "http://p:3128"},
		{"HTTP_PROXY ignored (httpoxy)", map[string]string{"HTTP_PROXY": "http://evil:1"}, "http", "example.com", 80, ""},
		{"HTTPS_PROXY upper case", map[string]string{"HTTPS_PROXY": "http://p:3128"}, "https", "example.com", 443, "http://p:3128"},
		{"lower case wins", map[string]string{"ftp_proxy": "http://lower:1", "FTP_PROXY": "http://upper:1"}, "ftp", "h", 21, "http://lower:1"},
		{"gopher_proxy", map[string]string{"GOPHER_PROXY": "socks5h://s:1080"}, "gopher", "h", 70, "socks5h://s:1080"},
		{"scheme-specific not for other schemes", map[string]string{"http_proxy": "http://p:1"}, "ftp", "h", 21, ""},
		{"all_proxy", map[string]string{"all_proxy": "socks5://s:1080"}, "nntp", "h", 119, "socks5://s:1080"},
		{"ALL_PROXY", map[string]string{"ALL_PROXY": "socks5://S:1080"}, "nntp", "h", 119, "socks5://S:1080"},
		{"scheme beats all", map[string]string{"all_proxy": "http://a:1", "ftp_proxy": "http://f:1"}, "ftp", "h", 21, "http://f:1"},
		{"no scheme means http", map[string]string{"all_proxy": "proxy.local:8080"}, "ftp", "h", 21, "http://proxy.local:8080"},
		{"no_proxy *", map[string]string{"all_proxy": "http://a:1", "no_proxy": "*"}, "ftp", "h", 21, ""},
		{"no_proxy exact", map[string]string{"all_proxy": "http://a:1", "no_proxy": "example.com"}, "ftp", "example.com", 21, ""},
		{"no_proxy suffix", map[string]string{"all_proxy": "http://a:1", "no_proxy": "example.com"}, "ftp", "ftp.example.com", 21, ""},
		{"no_proxy leading dot", map[string]string{"all_proxy": "http://a:1", "no_proxy": ".example.com"}, "ftp", "ftp.example.com", 21, ""},
		{"no_proxy leading dot matches domain", map[string]string{"all_proxy": "http://a:1", "no_proxy": ".example.com"}, "ftp", "example.com", 21, ""},
		{"no_proxy not a label suffix", map[string]string{"all_proxy": "http://a:1", "no_proxy": "example.com"}, "ftp", "badexample.com", 21, "http://a:1"},
		{"NO_PROXY list with spaces", map[string]string{"all_proxy": "http://a:1", "NO_PROXY": "foo.org, bar.org ,baz.org"}, "ftp", "x.bar.org", 21, ""},
		{"no_proxy case", map[string]string{"all_proxy": "http://a:1", "no_proxy": "Example.COM"}, "ftp", "example.com", 21, ""},
		{"no_proxy trailing dot host", map[string]string{"all_proxy": "http://a:1", "no_proxy": "example.com"}, "ftp", "example.com.", 21, ""},
		{"no_proxy IP", map[string]string{"all_proxy": "http://a:1", "no_proxy": "127.0.0.1"}, "ftp", "127.0.0.1", 21, ""},
		{"no_proxy IP other", map[string]string{"all_proxy": "http://a:1", "no_proxy": "127.0.0.1"}, "ftp", "127.0.0.2", 21, "http://a:1"},
		{"no_proxy CIDR", map[string]string{"all_proxy": "http://a:1", "no_proxy": "10.0.0.0/8,192.168.0.0/16"}, "ftp", "10.1.2.3", 21, ""},
		{"no_proxy CIDR outside", map[string]string{"all_proxy": "http://a:1", "no_proxy": "10.0.0.0/8"}, "ftp", "11.1.2.3", 21, "http://a:1"},
		{"no_proxy IPv6", map[string]string{"all_proxy": "http://a:1", "no_proxy": "::1"}, "ftp", "::1", 21, ""},
		{"no_proxy IPv6 CIDR", map[string]string{"all_proxy": "http://a:1", "no_proxy": "fd00::/8"}, "ftp", "fd12::1", 21, ""},
		{"no_proxy bracketed v6 port", map[string]string{"all_proxy": "http://a:1", "no_proxy": "[::1]:21"}, "ftp", "::1", 21, ""},
		{"no_proxy names do not match IPs", map[string]string{"all_proxy": "http://a:1", "no_proxy": "localhost"}, "ftp", "127.0.0.1", 21, "http://a:1"},
		{"no_proxy port match", map[string]string{"all_proxy": "http://a:1", "no_proxy": "example.com:8080"}, "http", "example.com", 8080, ""},
		{"no_proxy port mismatch", map[string]string{"all_proxy": "http://a:1", "no_proxy": "example.com:8080"}, "http", "example.com", 80, "http://a:1"},
		{"no_proxy empty entries", map[string]string{"all_proxy": "http://a:1", "no_proxy": ",,."}, "ftp", "h", 21, "http://a:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range proxyVars {
				t.Setenv(v, tt.env[v])
			}
			got, err := ProxyFromEnvironment(tt.scheme, tt.host, tt.port)
			if err != nil {
				t.Fatal(err)
			}
			s := ""
			if got != nil {
				s = got.String()
			}
			if s != tt.want {
				t.Errorf("ProxyFromEnvironment(%s, %s, %d) = %q, want %q", tt.scheme, tt.host, tt.port, s, tt.want)
			}
		})
	}
}

func TestProxyFromEnvironmentBadValue(t *testing.T) {
	for _, v := range proxyVars {
		t.Setenv(v, "")
	}
	t.Setenv("all_proxy", "socks4://u:secret@h:1080")
	_, err := ProxyFromEnvironment("ftp", "h", 21)
	if err == nil {
		t.Fatal("socks4 proxy accepted")
	}
	if got := err.Error(); !strings.Contains(got, "socks4") || strings.Contains(got, "secret") {
		t.Errorf("error %q: want it to name the scheme and hide the password", got)
	}
}
