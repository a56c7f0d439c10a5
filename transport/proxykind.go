package transport

// The kinds of proxy a Dialer speaks, by the scheme of the proxy's URL.
// They are this package's own protocol knowledge, how to reach a proxy
// and ask it for a connection, and not URL schemes it retrieves: an http
// proxy carries every scheme's connections through CONNECT. So they stay
// here, named once (internal/rules counts the two that are also scheme
// names).
const (
	proxyHTTP    = "http"    // HTTP CONNECT; an http request is forwarded instead (ForwardProxy)
	proxyHTTPS   = "https"   // HTTP CONNECT over TLS to the proxy
	proxySOCKS5  = "socks5"  // SOCKS 5, names resolved here
	proxySOCKS5H = "socks5h" // SOCKS 5, names resolved by the proxy
)
