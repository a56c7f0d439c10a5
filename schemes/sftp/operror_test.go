package sftp

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/pkg/sftp"

	"github.com/urlget/urlget/internal/schemestest"
	"github.com/urlget/urlget/schemes"
)

// TestOpErrorKinds: a lost SFTP channel is a lost connection (exit 5,
// retryable), a timeout when its cause was one; the server's own answers
// keep their kinds.
func TestOpErrorKinds(t *testing.T) {
	u, err := schemestest.Parser(Parse)("sftp://host/f")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		err   error
		kind  schemes.Kind
		retry bool
	}{
		{"lost", sftp.ErrSSHFxConnectionLost, schemes.KindConnect, true},
		{"no connection", sftp.ErrSSHFxNoConnection, schemes.KindConnect, true},
		{"lost at a close", fmt.Errorf("%w: %w", sftp.ErrSSHFxConnectionLost, io.EOF), schemes.KindConnect, true},
		{"lost at a deadline", fmt.Errorf("%w: %w", sftp.ErrSSHFxConnectionLost, os.ErrDeadlineExceeded), schemes.KindTimeout, true},
		{"not found", fs.ErrNotExist, schemes.KindNotFound, false},
		{"refused", fs.ErrPermission, schemes.KindPermission, false},
	} {
		e := opError(u, "read", "/f", tt.err)
		if strings.Count(e.Error(), "connection lost") > 1 {
			t.Errorf("%s: %q says it twice", tt.name, e)
		}
		if schemes.KindOf(e) != tt.kind || schemes.IsRetryable(e) != tt.retry {
			t.Errorf("%s: %v (kind %v, retryable %v), want kind %v, retryable %v", tt.name, e, schemes.KindOf(e),
				schemes.IsRetryable(e), tt.kind, tt.retry)
		}
	}
}
