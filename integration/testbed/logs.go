package testbed

import (
	"fmt"
	"os"
	"path/filepath"
)

// protocolLogs names, per service, the file under LogDir(service) that
// records the commands the server received.
var protocolLogs = map[string]string{
	Vsftpd:         "vsftpd.log",      // log_ftp_protocol=YES: every command and reply
	VsftpdFTPS:     "vsftpd.log",      // the same, for the implicit FTPS instance
	Proftpd:        "commands.log",    // ExtendedLog … ALL: every command with its reply code
	Pureftpd:       "pure-ftpd.log",   // syslog (busybox syslogd) of pure-ftpd -d: every command
	Nginx:          "access.log",      // one line per request
	Gophernicus:    "gophernicus.log", // one line per request (gophernicus -l)
	GophernicusTLS: "gophernicus.log", // the same, behind stunnel (stunnel.log: connections)
	Pygopherd:      "pygopherd.log",   // one line per request (stdout of pygopherd)
	Gemini:         "access-1965.log", // molly-brown's access log: one line per request
	INN:            "news.log",        // syslog of innd and nnrpd (busybox syslogd): connections, groups, posts, auth
	Telnetd:        "xinetd.log",      // xinetd connection log of both services
	Tinyproxy:      "tinyproxy.log",   // LogLevel Info: every connection, request line and refused CONNECT
	SMTP:           "aiosmtpd.log",    // aiosmtpd debug log: every SMTP command
	Yaz:            "apdu.log",        // yaz-ztest -a: every APDU, decoded
	Zebra:          "apdu.log",        // zebrasrv -a: every APDU, decoded (zebrasrv.log: one line a request)
	Slapd:          "slapd.log",       // slapd -d stats: every operation (BIND, SRCH with base, scope and filter, results)
}

// LogDir returns the host directory into which the container of service
// writes its logs (mounted at /var/log/testbed in the container).
func LogDir(service string) string { return filepath.Join(RunDir(), "logs", service) }

// ProtocolLog returns the host path of service's protocol log, the file that
// records the commands or requests the server received.
func ProtocolLog(service string) (string, error) {
	name, ok := protocolLogs[service]
	if !ok {
		return "", fmt.Errorf("testbed: unknown service %q", service)
	}
	return filepath.Join(LogDir(service), name), nil
}

// ReadProtocolLog returns the current content of service's protocol log.
// Tests that look for their own commands should remember the length before
// acting (LogSize) and inspect only what was appended afterwards.
func ReadProtocolLog(service string) ([]byte, error) {
	p, err := ProtocolLog(service)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// LogSize returns the current size of service's protocol log (0 if it does
// not exist yet).
func LogSize(service string) int64 {
	p, err := ProtocolLog(service)
	if err != nil {
		return 0
	}
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// ReadProtocolLogSince returns what was appended to service's protocol log
// after it had offset bytes (see LogSize).
func ReadProtocolLogSince(service string, offset int64) ([]byte, error) {
	b, err := ReadProtocolLog(service)
	if err != nil {
		return nil, err
	}
	if offset < 0 || offset > int64(len(b)) {
		offset = 0
	}
	return b[offset:], nil
}
