package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/schemes"
)

// curlHints says, for a curl flag urlget does not have, what to use
// instead or why there is nothing: a script written for curl then fails
// with a message a person can act on, not a bare "unknown flag". Keys are
// the flag as typed ("-X", "--request"); a flag urlget has is never
// looked up here (pflag knows it).
var curlHints = map[string]string{
	"--json-data":             "send JSON with --data-binary @FILE -H \"Content-Type: application/json\" (urlget's --json is its own output as JSON)",
	"-G":                      "put the search part in the URL itself (http://host/path?a=b): there is no -G/--get",
	"--get":                   "put the search part in the URL itself (http://host/path?a=b): there is no -G/--get",
	"-T":                      "urlget does not upload: there is no -T/--upload-file (mailto: URLs send mail from stdin)",
	"--upload-file":           "urlget does not upload: there is no -T/--upload-file (mailto: URLs send mail from stdin)",
	"-b":                      "urlget keeps no cookies: there is no -b/--cookie",
	"--cookie":                "urlget keeps no cookies: there is no -b/--cookie",
	"-c":                      "urlget keeps no cookies: there is no -c/--cookie-jar",
	"--cookie-jar":            "urlget keeps no cookies: there is no -c/--cookie-jar",
	"--socks5":                "use --proxy socks5://HOST:PORT",
	"--socks5-hostname":       "use --proxy socks5h://HOST:PORT",
	"-U":                      "put the proxy's login in --proxy's URL (http://user:password@proxy:port)",
	"--proxy-user":            "put the proxy's login in --proxy's URL (http://user:password@proxy:port)",
	"--noproxy":               "set no_proxy in the environment (urlget reads no_proxy, as curl does)",
	"--http2":                 "urlget speaks HTTP/1.1 only: drop --http2",
	"--http2-prior-knowledge": "urlget speaks HTTP/1.1 only",
	"--http3":                 "urlget speaks HTTP/1.1 only",
	"--http1.1":               "urlget always speaks HTTP/1.1: drop --http1.1",
	"--http1.0":               "urlget speaks HTTP/1.1 only",
	"-0":                      "urlget speaks HTTP/1.1 only",
	"--include":               "use -I for the headers alone, or -v to see them on stderr (-i is urlget's --input-file)",
	"--trace":                 "use -v: the protocol exchange on stderr, passwords as ****",
	"--trace-ascii":           "use -v: the protocol exchange on stderr, passwords as ****",
	"-K":                      "urlget reads no config file: put the flags on the command line (-i FILE reads URLs)",
	"--config":                "urlget reads no config file: put the flags on the command line (-i FILE reads URLs)",
	"-l":                      "a URL ending in / is listed; --long lists like ls -l (there is no -l/--list-only)",
	"--list-only":             "a URL ending in / is listed; --long lists like ls -l (there is no -l/--list-only)",
	"-B":                      "use --ascii, or ;type=a in the URL",
	"--use-ascii":             "use --ascii, or ;type=a in the URL",
	"-Q":                      "urlget sends no extra FTP commands: there is no -Q/--quote",
	"--quote":                 "urlget sends no extra FTP commands: there is no -Q/--quote",
	"-P":                      "urlget uses passive FTP (EPSV, then PASV) only: there is no -P/--ftp-port",
	"--ftp-port":              "urlget uses passive FTP (EPSV, then PASV) only: there is no -P/--ftp-port",
	"--ftp-pasv":              "urlget always uses passive FTP: drop --ftp-pasv",
	"--ftp-create-dirs":       "urlget does not upload",
	"-t":                      "urlget's telnet flags are --login, --telnet-idle and --telnet-pace: there is no -t/--telnet-option",
	"--telnet-option":         "urlget's telnet flags are --login, --telnet-idle and --telnet-pace: there is no -t/--telnet-option",
	"--mail-from":             "use --from ADDRESS",
	"--mail-rcpt":             "put the recipients in the mailto: URL (mailto:a@example.org,b@example.org)",
	"--capath":                "use --cacert FILE (one file of CA certificates)",
	"--digest":                "urlget sends HTTP basic authentication only",
	"--ntlm":                  "urlget sends HTTP basic authentication only",
	"--negotiate":             "urlget sends HTTP basic authentication only",
	"--anyauth":               "urlget sends HTTP basic authentication only",
	"--basic":                 "urlget always sends HTTP basic authentication: drop --basic",
	"--url":                   "give the URL as an argument, or in a file with -i FILE",
	"--remote-name-all":       "use -O: it names every URL's file",
	"-N":                      "urlget writes bodies to stdout as they arrive: drop -N",
	"--no-buffer":             "urlget writes bodies to stdout as they arrive: drop -N",
	"--no-progress-meter":     "use -s: no progress and no messages (-sS keeps the errors)",
	"-q":                      "urlget reads no config file: drop -q",
	"--disable":               "urlget reads no config file: drop --disable",
	"-Y":                      "use -m/--max-time, or --idle-timeout SECONDS for a stalled transfer",
	"--speed-limit":           "use -m/--max-time, or --idle-timeout SECONDS for a stalled transfer",
	"-y":                      "use --idle-timeout SECONDS for a stalled transfer",
	"--speed-time":            "use --idle-timeout SECONDS for a stalled transfer",
	"-4":                      "urlget connects to the addresses the name resolves to, in order: there is no -4",
	"-6":                      "urlget connects to the addresses the name resolves to, in order: there is no -6",
	"--resolve":               "urlget resolves names with the system's resolver: use the address in the URL instead",
	"--connect-to":            "urlget resolves names with the system's resolver: use the address in the URL instead",
	"-j":                      "urlget keeps no cookies",
	"--junk-session-cookies":  "urlget keeps no cookies",
	"--crlf":                  "urlget does not upload",
	"--tr-encoding":           "urlget does not ask for transfer encodings",
	"--stderr":                "redirect stderr in the shell (2>FILE)",
}

// curlClashes are options whose flag curl spells alike for another
// meaning: an error about one adds what curl's means here.
var curlClashes = map[string]string{
	"form": "curl's --form, an HTTP multipart form, is -F or --form-data here",
}

// withCurlClash adds the note of curlClashes to err when its Part is
// such an option.
func withCurlClash(err error) error {
	var se *schemes.Error
	if !errors.As(err, &se) || curlClashes[se.Part] == "" {
		return err
	}
	c := *se
	c.Msg += " (" + curlClashes[se.Part] + ")"
	return &c
}

// curlFlagError turns pflag's "unknown flag" into a message that names
// the flag and says what to use instead when it is one of curl's;
// anything else comes back as it is.
func curlFlagError(err error) error {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) {
		return err
	}
	flag := "--" + ne.GetSpecifiedName()
	if ne.GetSpecifiedShortnames() != "" {
		flag = "-" + ne.GetSpecifiedName()[:1]
	}
	hint, ok := curlHints[flag]
	if !ok {
		return fmt.Errorf("unknown flag %s (urlget --help lists the flags)", flag)
	}
	return fmt.Errorf("%s is a curl flag urlget does not have: %s", flag, hint)
}
