package fetch

import (
	"context"
	"strings"
	"testing"

	"github.com/urlget/urlget/schemes"
)

// secretTrace records what it is told to redact.
type secretTrace struct {
	schemes.NopTrace
	secrets notes
}

func (t *secretTrace) Secret(s string) { t.secrets.add(s) }

// TestNetrcPasswordsNeverShown: a password handed out from the netrc is
// scrubbed from errors and given to the Trace to redact, as -u's are.
func TestNetrcPasswordsNeverShown(t *testing.T) {
	n, err := ParseNetrc("machine h login me password n3trc-pw")
	if err != nil {
		t.Fatal(err)
	}
	tr := &secretTrace{}
	c := &Client{Registry: schemes.NewRegistry(), Netrc: n, Trace: tr}
	policyScheme(c, "c", schemes.Retrieves, echoHandler{})
	_, err = c.Get(context.Background(), "c://h/x")
	if err == nil || strings.Contains(err.Error(), "n3trc-pw") || !strings.Contains(err.Error(), "****") {
		t.Errorf("error %v: want the netrc password scrubbed", err)
	}
	if !strings.Contains(tr.secrets.String(), "n3trc-pw") {
		t.Errorf("trace told of secrets %q, want the netrc password", tr.secrets.String())
	}
}
