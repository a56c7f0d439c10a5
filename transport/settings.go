package transport

// The settings that schemes.Error.Setting names in the transport's
// failures, so that a command can show its own flag for each: the
// transport's messages name none.
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
)
