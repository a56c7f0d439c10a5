package transport

// The settings that schemes.Error.Setting names in the transport's
// failures, so that a command can show its own flag for each: the
// transport's messages name none. A handler's message names the Dialer's
// timeouts in its caller's words (schemes.Words.Setting).
const (
	// SettingTrust is what decides whether a server's certificate is
	// trusted: Dialer.TLS's roots (TLSConfig's caFile) or its skipping
	// of verification.
	SettingTrust = "transport.Trust"
	// SettingRoots is TLSConfig's caFile, the trusted roots.
	SettingRoots = "transport.Roots"
	// SettingAllowPorts is the ports allowed despite the port policy
	// (Dialer.AllowPorts).
	SettingAllowPorts = "transport.AllowPorts"
	// SettingConnectTimeout is Dialer.ConnectTimeout, which bounds
	// connecting (and a datagram server's first reply).
	SettingConnectTimeout = "transport.ConnectTimeout"
	// SettingIdleTimeout is Dialer.IdleTimeout, how long a connection
	// waits for progress.
	SettingIdleTimeout = "transport.IdleTimeout"
)
