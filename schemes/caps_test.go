package schemes

import "testing"

func TestCaps(t *testing.T) {
	tests := []struct {
		name         string
		caps         Caps
		str          string
		redirectable bool
	}{
		{"ftp-like", Retrieves | Lists | Stats | Resumes, "retrieves,lists,stats,resumes", true},
		{"gopher-like", Retrieves | Lists | Crawls, "retrieves,lists,crawls", true},
		{"http-like", Retrieves | Lists | Stats | Resumes | Conditional | Crawls, "retrieves,lists,stats,resumes,conditional,crawls", true},
		{"http-like", Retrieves | Stats | Resumes, "retrieves,stats,resumes", true},
		{"telnet-like", Retrieves | Interactive, "retrieves,interactive", false},
		{"mailto-like", Retrieves | Sends, "retrieves,sends", false},
		{"file-like", Retrieves | Lists | Stats | Resumes | Local, "retrieves,lists,stats,resumes,local", false},
		{"ftps-like", Retrieves | Lists | Stats | Resumes | TLS, "retrieves,lists,stats,resumes,tls", true},
		{"smtp-like", Sends | TLS, "sends,tls", false},
		{"nntp-like", Retrieves | Lists | TLS | Pipelines, "retrieves,lists,tls,pipelines", true},
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
