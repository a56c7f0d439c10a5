package main

import (
	"errors"

	"github.com/urlget/urlget/schemes"
)

// A retrieval follows curl on an HTTP error status: the server answered,
// so without -f the transfer worked — the error page is written as the
// resource, the exit status is 0, and a line on stderr says which status
// was written (unless -s). -f fails on it with curl's exit status 22,
// writing nothing; --fail-with-body writes the page, then fails with 22.
// Every retrieval asks for error pages (fetch.Request.ErrorPages); the
// http handler's -f (Fail) and --fail-with-body (FailWithBody) say what
// becomes of them. urlget ls and a mirror ask for none: a page is no
// listing, and no file of the tree. The other schemes keep urlget's exit
// statuses (README, "Exit status").

// exitHTTPError is curl's exit status for an HTTP error status it fails
// on (CURLE_HTTP_RETURNED_ERROR).
const exitHTTPError = 22

// statusFailure reports whether err is a server's error status that a
// retrieval failed on because the user said so (-f, --fail-with-body).
func statusFailure(err error) bool {
	return errors.Is(err, schemes.ErrErrorStatus) || errors.Is(err, schemes.ErrBodyWritten)
}

// exitFor is the exit status of one URL's failure: curl's 22 for an
// error status a retrieval failed on, else its kind's (exitCode). A
// listing keeps the kind's: urlget ls is no curl command.
func (o *options) exitFor(err error) int {
	if !o.list && statusFailure(err) {
		return exitHTTPError
	}
	return exitCode(err)
}

// failsOnStatus says whether -f or --fail-with-body was given: -I, which
// has no page to refuse, fails after showing the head, as curl -fI does.
func (o *options) failsOnStatus() bool {
	return o.schemes.bool("fail") || o.schemes.bool("fail-with-body")
}

// pageNote is the line on stderr after an error status's page (or, for
// -I, its head) was written as the resource: which status, and how to
// make it a failure.
func (o *options) pageNote(failure error) string {
	what := "page"
	if o.head {
		what = "head"
	}
	msg := redactedText(failure) + ": its " + what + " was written"
	if errors.Is(failure, schemes.ErrErrorStatus) {
		msg += "; -f makes that a failure (exit 22)"
	}
	return msg
}

// pageReport is the --json report's error_page: the error status whose
// page was written as the resource, nil for none.
func pageReport(failure error) *reportError {
	if failure == nil {
		return nil
	}
	return newReportError(failure)
}
