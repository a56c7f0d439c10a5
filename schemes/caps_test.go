package schemes

import "testing"

func TestCaps(t *testing.T) {
	tests := []struct {
		name         string
		caps         Caps
		str          string
		redirectable bool
	}{
		{"ftp-like", Retrieves | Lists | Stats | Resumes | RedirectTarget, "retrieves,lists,stats,resumes,redirect-target", true},
		{"ftp without the claim", Retrieves | Lists | Stats | Resumes, "retrieves,lists,stats,resumes", false},
		{"gopher-like", Retrieves | Lists | Crawls, "retrieves,lists,crawls", false},
		{"http-like", Retrieves | Lists | Stats | Resumes | Conditional | Crawls | RedirectTarget | Pages, "retrieves,lists,stats,resumes,conditional,crawls,redirect-target,pages", true},
		{"http-like", Retrieves | Stats | Resumes | RedirectTarget, "retrieves,stats,resumes,redirect-target", true},
		{"claims it but sends", Retrieves | Sends | RedirectTarget, "retrieves,sends,redirect-target", false},
		{"claims it but does not retrieve", Lists | RedirectTarget, "lists,redirect-target", false},
		{"telnet-like", Retrieves | Interactive, "retrieves,interactive", false},
		{"mailto-like", Retrieves | Sends, "retrieves,sends", false},
		{"file-like", Retrieves | Lists | Stats | Resumes | Local, "retrieves,lists,stats,resumes,local", false},
		{"ftps-like", Retrieves | Lists | Stats | Resumes | TLS | RedirectTarget, "retrieves,lists,stats,resumes,tls,redirect-target", true},
		{"smtp-like", Sends | TLS, "sends,tls", false},
		{"nntp-like", Retrieves | Lists | TLS | Pipelines, "retrieves,lists,tls,pipelines", false},
		{"lists but does not retrieve", Lists, "lists", false},
		{"parse only", 0, "", false},
	}
	for _, tt := range tests {
		if s := tt.caps.String(); s != tt.str {
			t.Errorf("%s: String %q, want %q", tt.name, s, tt.str)
		}
		if r := tt.caps.Redirectable(); r != tt.redirectable {
			t.Errorf("%s: Redirectable %v, want %v", tt.name, r, tt.redirectable)
		}
	}
}

func TestCapsHas(t *testing.T) {
	c := Retrieves | Lists | Resumes
	tests := []struct {
		want Caps
		has  bool
	}{
		{Retrieves, true},
		{Retrieves | Lists, true},
		{Retrieves | Lists | Resumes, true},
		{Stats, false},
		{Lists | Stats, false}, // every one, not any one
		{0, true},
	}
	for _, tt := range tests {
		if got := c.Has(tt.want); got != tt.has {
			t.Errorf("(%v).Has(%v) = %v, want %v", c, tt.want, got, tt.has)
		}
	}
}
