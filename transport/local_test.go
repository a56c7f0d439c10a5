package transport

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport/sshagenttest"
)

// TestDialLocal: a local socket is dialed with the trace's notes, and
// the connection is a *Conn like a dialed one.
func TestDialLocal(t *testing.T) {
	path := sshagenttest.UnixServer(t, echo)
	var buf strings.Builder
	d := &Dialer{ConnectTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second, Trace: NewTrace(&buf)}
	c, err := d.DialLocal(t.Context(), "sftp", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "hi\n"); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 3)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "hi\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	if wc, ok := c.(*Conn); !ok || wc.BytesRead() != 3 {
		t.Errorf("connection %T, want a *Conn that counted 3 bytes read", c)
	}
	for _, want := range []string{"* Connecting to local socket " + path, "* Connected to local socket " + path} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("trace %q lacks %q", buf.String(), want)
		}
	}
}

// TestDialLocalMissing: a socket that does not exist is a connect error
// naming it, not retryable, with fs.ErrNotExist in its chain.
func TestDialLocalMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.sock")
	_, err := (&Dialer{}).DialLocal(t.Context(), "sftp", path)
	se := wantKind(t, err, schemes.KindConnect)
	if se.Retryable || se.Scheme != "sftp" || !strings.Contains(se.Msg, path) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %+v (%v): want a non-retryable sftp connect error naming %s, matching fs.ErrNotExist", se, err, path)
	}
}

// TestDialLocalCanceled: a canceled context dials nothing, and canceling
// the context of a dialed connection ends a Read waiting on it.
func TestDialLocalCanceled(t *testing.T) {
	release := make(chan struct{})
	path := sshagenttest.UnixServer(t, func(net.Conn) { <-release })
	defer close(release)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := (&Dialer{}).DialLocal(ctx, "sftp", path); !errors.Is(err, context.Canceled) {
		t.Fatalf("dial with a canceled context: %v, want context.Canceled", err)
	}
	wantKind(t, func() error { _, err := (&Dialer{}).DialLocal(ctx, "sftp", path); return err }(), schemes.KindCanceled)

	ctx, cancel = context.WithCancel(t.Context())
	c, err := (&Dialer{}).DialLocal(ctx, "sftp", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	read := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 1))
		read <- err
	}()
	cancel()
	select {
	case err := <-read:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("read after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a Read on the local socket outlived its context")
	}
}
