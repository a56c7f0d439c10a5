package fetch

// The Client's settings that schemes.Error.Setting names, so that a
// command can show its own flag for each: the Client's messages name
// none.
const (
	SettingProtocols         = "fetch.Protocols"
	SettingRedirectProtocols = "fetch.RedirectProtocols"
	SettingRequireTLS        = "fetch.RequireTLS"
)
