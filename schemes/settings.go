package schemes

// The caller's settings that a handler's message may tell a person of,
// which the fetch Client holds: they reach a handler on the Request
// (RequireTLS; Credentials, which the Client fills from its Credentials
// and Netrc) or bound its context (MaxTime). A message names them in the
// caller's words (Words.Setting), and they are spelled as the fetch
// package spells its settings (fetch.SettingRequireTLS is
// SettingRequireTLS); they live here because a handler does not import
// fetch.
const (
	// SettingRequireTLS refuses clear text (Request.RequireTLS).
	SettingRequireTLS = "fetch.RequireTLS"
	// SettingCredentials is the user and password given for URLs that
	// carry none (Request.Credentials).
	SettingCredentials = "fetch.Credentials"
	// SettingNetrc is the netrc file that logins are taken from
	// (Request.Credentials, too).
	SettingNetrc = "fetch.Netrc"
	// SettingMaxTime bounds each attempt (the context's deadline).
	SettingMaxTime = "fetch.MaxTime"
)
