package sftp

import (
	"context"
	"io"
	"os"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/urlget/urlget/schemes"
)

// agentSocket is the variable that names the SSH agent's socket, as
// OpenSSH reads it.
const agentSocket = "SSH_AUTH_SOCK"

// agentSigners returns the keys of the SSH agent $SSH_AUTH_SOCK names,
// and the connection to it, which signs for them during the login and is
// closed after it. The socket is opened through the request's Dialer
// (schemes.LocalDialer: only the transport opens sockets), and only
// because the user's environment names it. No agent is no error — the
// variable unset, a Dialer that cannot open local sockets, a socket that
// does not answer: the login goes on without its keys, and the trace
// (-v) says why.
func agentSigners(ctx context.Context, scheme string, req *schemes.Request, tr schemes.Trace) ([]ssh.Signer, io.Closer) {
	path := os.Getenv(agentSocket)
	if path == "" {
		tr.Info("no SSH agent: " + agentSocket + " is not set")
		return nil, nil
	}
	ld, ok := req.Dialer.(schemes.LocalDialer)
	if !ok {
		tr.Info("no SSH agent: the Dialer cannot open local sockets")
		return nil, nil
	}
	conn, err := ld.DialLocal(schemes.WithTrace(ctx, tr), scheme, path)
	if err != nil {
		tr.Info("no SSH agent: " + err.Error())
		return nil, nil
	}
	signers, err := agent.NewClient(conn).Signers()
	if err != nil {
		conn.Close()
		tr.Info("no keys from the SSH agent: " + err.Error())
		return nil, nil
	}
	tr.Info("the SSH agent offers " + plural(len(signers), "key"))
	return signers, conn
}

// plural is "1 key", "2 keys".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}
