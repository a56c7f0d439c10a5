// Command urlget retrieves the resource any RFC 1738 URL designates —
// ftp, http, gopher, mailto, news, nntp, telnet, wais, file, prospero — by
// carrying out that scheme's access algorithm. Usage is curl-like:
//
//	urlget [flags] URL...
//	urlget ls [-l] [--json] [flags] URL...
//	urlget mirror [flags] URL DIR
//	urlget serve [--listen ADDR] [--allow-file] [flags]
//	urlget parse URL | canon URL | same A B | resolve BASE REF | extract [FILE|-]
//	urlget help [SUBCOMMAND|SCHEME] | completion bash|zsh|fish | man
//
// Exit status: 0 success; 1 other failure; 2 usage error or malformed URL;
// 3 not found; 4 login or permission refused; 5 could not connect, DNS
// failure or timeout; 6 protocol error; 7 refused by a safety rule;
// 8 scheme or feature not supported; 23 a local file cannot be written
// (curl's write error); 130 interrupted by Ctrl-C (143: SIGTERM).
package main

import (
	"context"
	"io"
	"os"
)

func main() {
	oneProcessorPolicy = true
	ctx, stop := interruptible(context.Background())
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole command, with its streams passed in so tests drive it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		shortUsage(stderr)
		return 2
	}
	switch args[0] {
	case "mirror":
		return runMirror(ctx, args[1:], stdin, stdout, stderr)
	case "serve":
		return runServe(ctx, args[1:], stdin, stdout, stderr)
	case "ls":
		return runLs(ctx, args[1:], stdin, stdout, stderr)
	}
	if sub, ok := plainSubcommand(args[0]); ok {
		if asksHelp(args[1:]) {
			return showTopic(args[0], stdout, stderr)
		}
		return sub(args[1:], stdin, stdout, stderr)
	}
	opts, err := parseFlags(args, stdin, stderr)
	if err != nil {
		retrieval, _ := commandNamed("")
		return flagsFailed(err, retrieval, args, stdout, stderr)
	}
	return opts.retrieveAll(ctx, stdin, stdout, stderr)
}
