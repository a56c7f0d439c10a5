package main

import (
	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/mirror"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// settingFlags are this command's words for the library's settings
// (schemes.Error.Setting, mirror.Event.Setting, schemes.Words.Setting):
// the library's messages name no flag, and the command adds its own.
var settingFlags = map[string]string{
	mirror.SettingMaxDepth:         "--max-depth",
	mirror.SettingMaxListings:      "--max-listings",
	mirror.SettingMaxEntries:       "--max-entries",
	mirror.SettingMaxDelete:        "--max-delete N allows them",
	mirror.SettingFollowSymlinks:   "--follow-symlinks",
	fetch.SettingProtocols:         "--proto",
	fetch.SettingRedirectProtocols: "--proto-redir",
	fetch.SettingRequireTLS:        "--ssl-reqd",
	fetch.SettingServerName:        "-J; name the file with -o",
	fetch.SettingRange:             "-r",
	gateway.SettingAllowSend:       "--allow-send",
	gateway.SettingAllowFile:       "--allow-file",
	transport.SettingTrust:         "use --cacert FILE, or -k to skip verification",
	transport.SettingRoots:         "--cacert",
	transport.SettingAllowPorts:    "use --allow-port PORT to override",
	// Settings that handlers' messages name in the caller's words
	// (schemes.Words.Setting, asked through flagOf).
	schemes.SettingCredentials:      "--user",
	schemes.SettingNetrc:            "--netrc",
	schemes.SettingMaxTime:          "--max-time",
	fetch.SettingRetryMaxTime:       "--retry-max-time",
	transport.SettingConnectTimeout: "--connect-timeout",
	transport.SettingIdleTimeout:    "--idle-timeout",
}

// flagHint is " (FLAG)" for setting, "" for a setting without a flag.
func flagHint(setting string) string {
	if f := settingFlags[setting]; f != "" {
		return " (" + f + ")"
	}
	return ""
}

// withFlags is ev in the command's words: its Reason names the flag of
// the setting that decided it (its Err does when shown: redactedText).
func withFlags(ev mirror.Event) mirror.Event {
	if ev.Reason != "" {
		ev.Reason += flagHint(ev.Setting)
	}
	return ev
}

// worded is an error shown as redactedText shows it, flag included: an
// event's error in --json.
type worded struct{ err error }

func (w worded) Error() string { return redactedText(w.err) }
func (w worded) Unwrap() error { return w.err }
