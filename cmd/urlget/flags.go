package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"time"

	"github.com/spf13/pflag"
)

// version is the urlget release; set with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// errNoURL is a command line, or an -i list, without a URL.
var errNoURL = errors.New("no URL given (urlget --help lists the flags)")

// options are the parsed command line of a retrieval.
type options struct {
	urls       []string
	outputs    []string // -o, the i-th for the i-th URL
	remoteName bool     // -O
	// headerName (-J) names an -O file as the server suggests
	// (Content-Disposition), and createDirs (--create-dirs) makes the
	// missing directories of an output path: see curlflags.go.
	headerName bool
	createDirs bool
	outputDir  string
	resume     bool // -C -
	silent     bool
	showError  bool
	verbose    bool
	connectTO  time.Duration
	localIP    net.IP // --interface
	maxTime    time.Duration
	idleTO     time.Duration
	retries    int
	retryDelay time.Duration
	proxy      string
	// dumpHeader (-D) is where each response's head goes: dumpheader.go.
	dumpHeader string
	inputFile  string
	// listed says where each URL read with -i was ("-i FILE, line N"),
	// for its messages; "" for a URL of the command line.
	listed     []string
	json       bool
	explain    bool
	allowPorts []int
	remoteTime bool
	fsync      bool
	insecure   bool
	caFile     string
	user       string
	netrc      netrcFlags // -n, --netrc-optional, --netrc-file
	maxRedirs  int
	sslReqd    bool
	long       bool   // --long: listings like ls -l
	list       bool   // urlget ls: list each URL as a container
	proto      string // --proto: schemes the URLs may use
	protoRedir string // --proto-redir: schemes redirects may lead to
	// locationTrusted (--location-trusted) sends -u credentials to every
	// host a redirect leads to.
	locationTrusted bool
	// limitRate (--limit-rate) and maxFileSize (--max-filesize) are in
	// bytes; 0 means no limit.
	limitRate   int64
	maxFileSize int64
	// retryMaxTime (--retry-max-time) bounds the time spent retrying one
	// URL; 0: no bound.
	retryMaxTime time.Duration
	// head (-I) shows a resource's metadata instead of its body (head.go),
	// writeOut (-w) is the format written after each transfer
	// (writeout.go), and progressBar (-#) draws curl's bar of "#".
	head        bool
	noPipeline  bool // --no-pipeline, for the schemes that pipeline (schemes.OptionNoPipeline)
	writeOut    string
	progressBar bool
	// max (--max) is the most entries a listing asks for; 0: each
	// scheme's default.
	max int
	// parallel (-Z) runs up to parallelMax transfers at once, and
	// failEarly (--fail-early) stops at the first failure: parallel.go.
	parallel    bool
	parallelMax int
	failEarly   bool
	// set is the run of -Z, nil without it: its transfers count their
	// bytes into its one progress line.
	set *parallelSet
	// dump is -D's destination for the run, nil without it.
	dump *headDump
	// segments (--segments) fetches a large file over that many
	// connections: segments.go.
	segments int
	// con is stderr, and stdoutTerminal whether stdout is a terminal;
	// retrieveAll sets them from the streams, not from flags.
	con            *console
	stdoutTerminal bool
	// schemes are the flags of the schemes' declared options.
	schemes *schemeFlags
	// rangeFlags are -r and -z: rangeflags.go.
	rangeFlags rangeFlags
}

// seconds is a flag's SECONDS as a Duration, rounded to the nanosecond:
// truncated, 2.3 would be 2.299999999s, which messages would then show.
func seconds(f float64) time.Duration { return time.Duration(math.Round(f * float64(time.Second))) }

func parseFlags(args []string, stdin io.Reader, stderr io.Writer) (*options, error) {
	return parseFlagsFor(args, stdin, stderr, nil)
}

// subcommandFlags are the own flags of a subcommand that takes a
// retrieval's connection flags too (`urlget mirror`, `urlget serve`).
type subcommandFlags interface {
	// add defines the subcommand's flags.
	add(fs *pflag.FlagSet)
	// check takes the parsed arguments and refuses what the subcommand
	// cannot use.
	check(fs *pflag.FlagSet, o *options) error
}

// parseFlagsFor parses a retrieval's command line, or, with m set, that
// of a subcommand: the same connection flags plus its own.
func parseFlagsFor(args []string, stdin io.Reader, stderr io.Writer, m subcommandFlags) (*options, error) {
	o := &options{}
	fs := pflag.NewFlagSet("urlget", pflag.ContinueOnError)
	fs.SetInterspersed(true) // curl-style: flags may sit between URLs
	fs.SetOutput(stderr)
	var connectTO, maxTime, idleTO, retryDelay, retryMaxTime float64
	var cont, limitRate, maxFileSize, iface string
	var showVersion bool
	fs.StringArrayVarP(&o.outputs, "output", "o", nil, "write the i-th URL to `FILE` (- for stdout); repeat per URL")
	fs.BoolVarP(&o.remoteName, "remote-name", "O", false, "write to a local file named like the remote one")
	fs.StringVar(&o.outputDir, "output-dir", "", "put -o/-O files in `DIR`")
	fs.BoolVarP(&o.headerName, "remote-header-name", "J", false, "with -O, name the file as the server suggests (Content-Disposition), never overwriting a file")
	fs.BoolVar(&o.createDirs, "create-dirs", false, "create the missing directories of an -o path")
	fs.StringVarP(&cont, "continue-at", "C", "", "resume a transfer: - continues from the partial file")
	fs.BoolVarP(&o.silent, "silent", "s", false, "no progress bar and no error messages")
	fs.BoolVarP(&o.showError, "show-error", "S", false, "with -s, still show error messages")
	fs.BoolVarP(&o.verbose, "verbose", "v", false, "print the protocol exchange on stderr (secrets as ****)")
	fs.Float64Var(&connectTO, "connect-timeout", 30, "give up connecting after `SECONDS`")
	fs.Float64VarP(&maxTime, "timeout", "m", 0, "give up each attempt of a transfer after `SECONDS` (0: never)")
	fs.Float64Var(&maxTime, "max-time", 0, "same as --timeout")
	fs.Float64Var(&idleTO, "idle-timeout", 120, "give up when the peer is silent for `SECONDS`")
	fs.IntVar(&o.retries, "retry", 0, "retry retryable failures `N` times, with backoff")
	fs.Float64Var(&retryDelay, "retry-delay", 1, "first wait between retries in `SECONDS` (doubles each time)")
	fs.Float64Var(&retryMaxTime, "retry-max-time", 0, "start no retry after `SECONDS` since the first attempt began (0: no limit)")
	fs.StringVarP(&o.proxy, "proxy", "x", "", "connect through `URL` (http:// CONNECT or socks5://, socks5h://)")
	fs.StringVar(&iface, "interface", "", "make every connection from `ADDR`: an IP address of this machine, or a network interface's name (its first address)")
	fs.StringVarP(&o.dumpHeader, "dump-header", "D", "", "write each response's head to `FILE` (- for stdout), as well as the body: HTTP's as sent, redirects' included; other schemes' lines as -I shows them")
	fs.StringVar(&limitRate, "limit-rate", "", "read bodies at most `RATE` bytes a second (suffix k, m, g: powers of 1024)")
	fs.IntVar(&o.max, "max", 0, "ask a listing for at most `N` entries where the protocol takes a number: the newest N articles of a news group (default 100), N hits of a WAIS search (default 40), N records of a Z39.50 search (default 40)")
	fs.StringVar(&maxFileSize, "max-filesize", "", "refuse a resource larger than `SIZE` bytes (suffix k, m, g), before writing when its size is announced")
	fs.StringVarP(&o.inputFile, "input-file", "i", "", "read URLs from `FILE` (- for stdin), one a line")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per URL on stdout")
	fs.BoolVar(&o.explain, "explain", false, "print the plan of each retrieval, without connecting")
	fs.IntSliceVar(&o.allowPorts, "allow-port", nil, "allow connecting to `PORT` despite the port policy")
	fs.BoolVarP(&o.remoteTime, "remote-time", "R", false, "give the local file the server's modification time")
	fs.BoolVar(&o.fsync, "fsync", false, "wait until a downloaded file is on disk before renaming it into place")
	fs.BoolVarP(&o.insecure, "insecure", "k", false, "do not verify TLS certificates")
	fs.StringVar(&o.caFile, "cacert", "", "verify TLS certificates with the CAs in `FILE`")
	fs.StringVarP(&o.user, "user", "u", "", "`USER[:PASSWORD]` for URLs that carry none")
	o.netrc.add(fs)
	fs.BoolVar(&o.sslReqd, "ssl-reqd", false, "require TLS: upgrade where a scheme can (ftp AUTH TLS, nntp and smtp STARTTLS) or fail, and refuse schemes without TLS (http:, gopher:, ...); sftp:, encrypted by SSH, goes on")
	fs.IntVar(&o.maxRedirs, "max-redirs", 10, "follow at most `N` redirects or referrals")
	fs.StringVar(&o.proto, "proto", "", "only use the schemes in `LIST` for the URLs given (curl syntax: =http,https or -all,+ftp; all by default)")
	fs.StringVar(&o.protoRedir, "proto-redir", "", "let redirects lead only to the schemes in `LIST` (curl syntax; default: http,https,ftp,ftps)")
	fs.BoolVar(&o.locationTrusted, "location-trusted", false, "send -u and netrc credentials to the hosts redirects lead to as well")
	fs.BoolVar(&o.long, "long", false, "list directories, menus and groups like ls -l (kind, size, time, name)")
	fs.BoolVarP(&o.head, "head", "I", false, "show the metadata, not the body: HTTP's response head (as curl -I); ftp and file: Content-Length and Last-Modified lines; news: the article's headers")
	fs.StringVarP(&o.writeOut, "write-out", "w", "", "after each transfer write `FORMAT` to stdout, with curl's %{variables}: response_code, size_download, url_effective, time_total, json, ... (@FILE: read it from FILE)")
	fs.BoolVarP(&o.progressBar, "progress-bar", "#", false, "draw the progress as curl's bar of #")
	addRangeFlags(fs, o)
	if m == nil { // mirror has a --parallel of its own
		addParallelFlags(fs, o)
		addSegmentFlags(fs, o)
	}
	fs.BoolVarP(&showVersion, "version", "V", false, "print the version")
	fs.BoolVar(&o.noPipeline, "no-pipeline", false, "news/nntp, ftp and http: send each request after the reply to the one before (otherwise a mirror and a list of URLs send article commands up to 64 ahead, RFC 3977 §3.5, the next file's EPSV with RETR, and the GETs of the next URLs of an http server up to 32 ahead, RFC 9112 §9.3.2; ftp sends the commands after the login that do not wait on each other's replies, PWD, CWD, TYPE, SIZE, EPSV, together)")
	o.schemes = addSchemeFlags(fs)
	fs.Usage = func() {} // the caller writes the help, on stdout: helpShown
	if m != nil {
		m.add(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, &helpShown{fs: fs, schemes: o.schemes}
		}
		return nil, curlFlagError(err)
	}
	if showVersion {
		return nil, &helpShown{version: true}
	}
	if err := checkParallelMax(fs, o.parallelMax); err != nil {
		return nil, err
	}
	if err := checkSegments(fs, o.segments); err != nil {
		return nil, err
	}
	if fs.Changed("max") && o.max < 1 {
		return nil, fmt.Errorf("--max %d: want a positive number of entries", o.max)
	}
	switch cont {
	case "":
	case "-":
		o.resume = true
	default:
		return nil, fmt.Errorf("-C %s: only \"-C -\" (continue from the partial file) is supported", cont)
	}
	for _, l := range []struct {
		flag, value string
		to          *int64
	}{{"limit-rate", limitRate, &o.limitRate}, {"max-filesize", maxFileSize, &o.maxFileSize}} {
		if l.value == "" {
			continue
		}
		n, err := parseSize(l.flag, l.value)
		if err != nil {
			return nil, err
		}
		*l.to = n
	}
	if iface != "" {
		ip, err := localIP(iface)
		if err != nil {
			return nil, err
		}
		o.localIP = ip
	}
	o.connectTO, o.maxTime, o.idleTO, o.retryDelay = seconds(connectTO), seconds(maxTime), seconds(idleTO), seconds(retryDelay)
	o.retryMaxTime = seconds(retryMaxTime)
	if err := o.checkRangeFlags(fs, stderr); err != nil {
		return nil, err
	}
	if o.headerName && o.resume {
		// As curl: which partial file a name not yet known continues
		// cannot be told.
		return nil, errors.New("-J and -C -: a name the server gives cannot be continued; name the file with -o")
	}
	if o.writeOut != "" {
		f, err := readWriteOut(o.writeOut, stdin)
		if err != nil {
			return nil, err
		}
		o.writeOut = f
	}
	o.urls = fs.Args()
	if m != nil {
		return o, m.check(fs, o)
	}
	streams := o.streamsList() // -Z reads -i as it goes: urllist.go
	if o.inputFile != "" && !streams {
		more, where, err := readURLList(o.inputFile, stdin)
		if err != nil {
			return nil, err
		}
		o.listed = append(make([]string, len(o.urls)), where...)
		o.urls = append(o.urls, more...)
	}
	if len(o.urls) == 0 && !streams {
		return nil, errNoURL
	}
	if len(o.outputs) > len(o.urls) && !streams {
		return nil, fmt.Errorf("%d -o files for %d URLs", len(o.outputs), len(o.urls))
	}
	return o, nil
}

// maxURLLine bounds one line of an -i file: no URL is that long, and a
// file without newlines must not be read whole into memory.
const maxURLLine = 1 << 20

// where is the place the i-th URL was read from, to start its messages
// with: "-i urls.txt, line 3: "; "" for a URL of the command line.
func (o *options) where(i int) string {
	if i < len(o.listed) && o.listed[i] != "" {
		return o.listed[i] + ": "
	}
	return ""
}

// readURLList reads URLs one a line; blank lines and lines starting with
// "#" are skipped. where says where each URL was ("-i FILE, line N"). A
// line over maxURLLine is an error naming its number.
func readURLList(name string, stdin io.Reader) (urls, where []string, err error) {
	l, err := openURLList(name, stdin)
	if err != nil {
		return nil, nil, err
	}
	defer l.close()
	for {
		raw, at, ok := l.next()
		if !ok {
			break
		}
		urls, where = append(urls, raw), append(where, at)
	}
	if err := l.err(); err != nil {
		return nil, nil, err
	}
	return urls, where, nil
}
