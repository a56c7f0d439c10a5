package fetch

import "github.com/urlget/urlget/schemes"

// The Client's settings that schemes.Error.Setting names, so that a
// command can show its own flag for each: the Client's messages name
// none.
const (
	// SettingMaxTime is Client.MaxTime (schemes.SettingMaxTime, which a
	// handler's message may name too).
	SettingMaxTime = schemes.SettingMaxTime
	// SettingRetryMaxTime is Client.RetryMaxTime.
	SettingRetryMaxTime      = "fetch.RetryMaxTime"
	SettingProtocols         = "fetch.Protocols"
	SettingRedirectProtocols = "fetch.RedirectProtocols"
	// SettingRequireTLS is the contract's name for it, which handlers
	// use too (schemes.SettingRequireTLS): one setting, one name.
	SettingRequireTLS = schemes.SettingRequireTLS
)
