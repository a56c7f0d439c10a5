package main

import (
	"strings"
	"testing"
)

// These cover the command-line side of telnet: and mailto: — flags, exit
// statuses, --explain and --dry-run output — without any network: the
// handlers' own tests drive sessions and SMTP against fake servers.

func TestTelnetAndMailtoCommandLine(t *testing.T) {
	t.Setenv("URLGET_SMTP", "")
	t.Setenv("URLGET_EMAIL", "")
	t.Setenv("EMAIL", "")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"rlogin unsupported", []string{"rlogin://bob@host.example/"}, 8, nil, []string{"rlogin: sessions are not supported", "ssh bob@host.example"}},
		{"tn3270 unsupported", []string{"tn3270://host.example/"}, 8, nil, []string{"tn3270", "x3270"}},
		{"telnet explain", []string{"--explain", "--login", "telnet://alice:pw@127.0.0.1:2323/"}, 0,
			[]string{"connect 127.0.0.1:2323", "suggested login: alice", "type ****", "DO ECHO", "refuse"}, nil},
		{"telnet-idle must be positive", []string{"--telnet-idle", "0", "telnet://h/"}, 2, nil, []string{"--telnet-idle"}},
		{"mailto dry run", []string{"--dry-run", "--from", "me@example.org", "mailto:joe@example.com?subject=hi&body=hello"}, 0,
			[]string{"From: me@example.org\n", "To: joe@example.com\n", "Subject: hi\n", "Message-ID: <", "\n\nhello\n"}, nil},
		{"mailto explain", []string{"--explain", "--smtp-server", "mail.example.org", "--from", "me@example.org", "mailto:joe@example.com?body=x"}, 0,
			[]string{"connect mail.example.org:587", "MAIL FROM:<me@example.org>", "RCPT TO:<joe@example.com>"}, nil},
		{"mailto no server", []string{"mailto:joe@example.com?body=x"}, 2, nil, []string{"--smtp-server", "URLGET_SMTP"}},
		{"mailto header injection", []string{"--dry-run", "mailto:joe@example.com?subject=a%0D%0ABcc:%20x@example.net&body=x"}, 7, nil,
			[]string{"would inject a header field"}},
		{"mailto invalid address", []string{"--dry-run", "--from", "me@example.org", "mailto:a@@example.com?body=x"}, 2, nil,
			[]string{`invalid address: "a@@example.com"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := urlget(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if strings.Contains(stdout+stderr, ":pw@") {
				t.Errorf("password shown")
			}
		})
	}
}
