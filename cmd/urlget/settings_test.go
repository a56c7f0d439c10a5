package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestFlagOfSettings: the handlers ask flagOf for the library's settings
// their messages name (schemes.Words.Setting) as well as for options; a
// setting gets urlget's flag for it, one without a flag "" (the library's
// own word stays), and options keep their spelling.
func TestFlagOfSettings(t *testing.T) {
	s := addSchemeFlags(pflag.NewFlagSet("test", pflag.ContinueOnError))
	for name, want := range map[string]string{
		schemes.SettingRequireTLS:       "--ssl-reqd",
		schemes.SettingCredentials:      "--user",
		schemes.SettingNetrc:            "--netrc",
		schemes.SettingMaxTime:          "--max-time",
		transport.SettingConnectTimeout: "--connect-timeout",
		transport.SettingIdleTimeout:    "--idle-timeout",
		"fetch.NoSuchSetting":           "",
		"search":                        "--search",
		"header":                        "-H",
	} {
		if got := s.flagOf(name); got != want {
			t.Errorf("flagOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestSchemeMessagesNameFlags: the handlers' messages and plans name no
// flag themselves (internal/rules); urlget's words reach them, so that
// what a person reads names its flags as before.
func TestSchemeMessagesNameFlags(t *testing.T) {
	t.Setenv("URLGET_SMTP", "")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"file: of another host", []string{"--no-file-ftp", "file://other.invalid/x"}, 8, "",
			`host "other.invalid" is not this machine, and --no-file-ftp forbids retrieving ftp://other.invalid/x instead`},
		{"gopher search without words", []string{"gopher://127.0.0.1:1/7/s"}, 2, "",
			"give one with --search WORDS or in the URL (%09words)"},
		{"gopher search plan", []string{"--explain", "gopher://h.invalid/7/s"}, 0, `<search: --search WORDS>`, ""},
		{"gopher form plan", []string{"--explain", "gopher://h.invalid/0/f%09%09?"}, 0,
			"ask the +ASK questions (--form NAME=VALUE, or the terminal)", ""},
		{"nntp plan", []string{"--explain", "nntp://h.invalid/comp.lang.go"}, 0,
			"(on 480: AUTHINFO USER/PASS with --user or netrc credentials, then the command again)", ""},
		{"mailto without a server", []string{"mailto:joe@example.com?body=x"}, 2, "",
			"use --smtp-server HOST[:PORT] or set URLGET_SMTP=HOST[:PORT] (port 587 by default), or --dry-run to print the message"},
		{"mailto bad server", []string{"--smtp-server", "h:x", "mailto:joe@example.com?body=x"}, 2, "", `--smtp-server "h:x": want HOST[:PORT]`},
		{"telnet login without a user", []string{"--login", "telnet://127.0.0.1:1/"}, 2, "",
			"--login needs a user: put it in the URL (telnet://user:password@host/) or use -u USER:PASSWORD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := urlget(t, "", tc.args...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d with %q", code, stdout, stderr, tc.code, tc.stdout+tc.stderr)
			}
		})
	}
}
