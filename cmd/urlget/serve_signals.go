package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/urlget/urlget/gateway"
)

// defaultShutdownGrace is how long `urlget serve` lets the requests under
// way finish after SIGTERM or SIGINT: under the 30 s Kubernetes waits
// before it kills a pod (terminationGracePeriodSeconds), with room for
// the process to exit.
const defaultShutdownGrace = 25 * time.Second

// accessLog is the gateway's access log on w: one line a request, as
// logfmt-like text (slog's TextHandler) or, for "json", one JSON object.
func accessLog(w io.Writer, format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// drain ends a serve that a signal stopped: /readyz fails at once
// (gw.Drain), the listener closes (a new connection is refused) and idle
// connections with it, and the requests under way get grace to finish;
// those still running then are cut. It says on stderr what happened.
func drain(gw *gateway.Server, srv *http.Server, grace time.Duration, stderr io.Writer) {
	gw.Drain()
	start := time.Now()
	fmt.Fprintf(stderr, "urlget: serve: shutting down: no new connection; the requests under way have %v to finish\n", grace)
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
		fmt.Fprintf(stderr, "urlget: serve: the requests still running after %v were cut\n", grace)
		return
	}
	fmt.Fprintf(stderr, "urlget: serve: every request ended, in %v\n", time.Since(start).Round(time.Millisecond))
}
