package gemini

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urlget/urlget/schemes"
)

// knownHostsName is the file, under the user's configuration directory
// (os.UserConfigDir: $XDG_CONFIG_HOME, else ~/.config, on Unix), that
// remembers the certificates of the gemini servers urlget has met.
const knownHostsName = "urlget/gemini_known_hosts"

// DefaultKnownHosts is where servers' certificates are remembered when no
// file is named: $XDG_CONFIG_HOME/urlget/gemini_known_hosts (else
// ~/.config/urlget/gemini_known_hosts), "" when there is no
// configuration directory.
func DefaultKnownHosts() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, knownHostsName)
}

// knownHost is one line of the file: a server (host:port), the SHA-256
// of its certificate, and when that certificate expires.
//
//	host:port SHA256-hex not-after-unix-seconds
type knownHost struct {
	fingerprint string
	notAfter    time.Time
}

// fileLock serializes the read-check-write of the file within this
// process; across processes the rename keeps every version whole, and
// two first uses at once each write the same line.
var fileLock sync.Mutex

// trust is gemini's trust on first use (specification §4.2): a server
// met for the first time has its certificate remembered in file; later,
// the same certificate is trusted, and another one only when the one
// remembered has expired (then it replaces it). The certificate itself
// must be within its validity period. Its name is not checked against
// roots: gemini servers mostly use self-signed certificates.
func trust(file, hostport string, now time.Time, st tls.ConnectionState) error {
	if len(st.PeerCertificates) == 0 {
		return trustError(hostport, "the server sent no certificate")
	}
	leaf := st.PeerCertificates[0]
	if now.Before(leaf.NotBefore) || now.After(leaf.NotAfter) {
		return trustError(hostport, fmt.Sprintf("the server's certificate is not valid now (valid %s to %s)",
			leaf.NotBefore.UTC().Format(time.RFC3339), leaf.NotAfter.UTC().Format(time.RFC3339)))
	}
	sum := sha256.Sum256(leaf.Raw)
	fp := hex.EncodeToString(sum[:])
	if file == "" {
		return trustError(hostport, "no file to remember servers' certificates in (no configuration directory): name one")
	}
	fileLock.Lock()
	defer fileLock.Unlock()
	hosts, err := readKnownHosts(file)
	if err != nil {
		return err
	}
	if old, ok := hosts[hostport]; ok {
		if old.fingerprint == fp {
			return nil
		}
		if now.Before(old.notAfter) {
			return trustError(hostport, fmt.Sprintf("the server's certificate changed (SHA-256 %s, remembered %s, which is valid until %s): refused; if the change is expected, remove the line for %s from %s",
				fp, old.fingerprint, old.notAfter.UTC().Format(time.RFC3339), hostport, file))
		}
	}
	hosts[hostport] = knownHost{fingerprint: fp, notAfter: leaf.NotAfter}
	return writeKnownHosts(file, hosts)
}

// trustError is a refused certificate: a safety rule, exit 7.
func trustError(hostport, msg string) error {
	return &schemes.Error{Scheme: "gemini", Phase: "tls", Kind: schemes.KindSafety, Part: "host",
		Msg: hostport + ": " + msg}
}

// readKnownHosts reads file; a file that does not exist is empty. A line
// it cannot read fails the check: a damaged file must not make every
// server new again.
func readKnownHosts(file string) (map[string]knownHost, error) {
	hosts := map[string]knownHost{}
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return hosts, nil
	}
	if err != nil {
		return nil, &schemes.Error{Scheme: "gemini", Phase: "tls", Kind: schemes.KindLocal, Msg: "cannot read the known hosts file " + file, Err: err}
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		secs, err := strconv.ParseInt(f[len(f)-1], 10, 64)
		if len(f) != 3 || err != nil || len(f[1]) != 64 {
			return nil, &schemes.Error{Scheme: "gemini", Phase: "tls", Kind: schemes.KindLocal,
				Msg: fmt.Sprintf("%s:%d: not a known host line (want HOST:PORT SHA256 NOT-AFTER)", file, n)}
		}
		hosts[f[0]] = knownHost{fingerprint: f[1], notAfter: time.Unix(secs, 0)}
	}
	return hosts, nil
}

// writeKnownHosts replaces file with hosts, atomically: a new file beside
// it, then a rename, so that a reader never sees half of it.
func writeKnownHosts(file string, hosts map[string]knownHost) error {
	fail := func(err error) error {
		return &schemes.Error{Scheme: "gemini", Phase: "tls", Kind: schemes.KindLocal, Msg: "cannot write the known hosts file " + file, Err: err}
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fail(err)
	}
	var b strings.Builder
	b.WriteString("# gemini servers' certificates, trusted on first use by urlget: HOST:PORT SHA256 NOT-AFTER\n")
	for _, hp := range slices.Sorted(maps.Keys(hosts)) {
		fmt.Fprintf(&b, "%s %s %d\n", hp, hosts[hp].fingerprint, hosts[hp].notAfter.Unix())
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".gemini_known_hosts.*")
	if err != nil {
		return fail(err)
	}
	_, err = tmp.WriteString(b.String())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fail(err)
	}
	return nil
}
