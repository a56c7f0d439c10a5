package retryfake

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// HTTP is an HTTP server of /f (Body, with an ETag and ModTime, Range
// honoured) whose first times requests of it fail with fault. Its / is an
// index page that links to f, never failing nor counted, for a mirror.
func HTTP(t testing.TB, fault Fault, times int) *Server {
	s := &Server{fault: fault, times: times}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.accepted()
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/f"
	return s
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/" {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><body><a href="f">f</a></body></html>`)
		return
	}
	off, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(r.Header.Get("Range"), "bytes="), "-"), 10, 64)
	if !s.attempt(off) {
		send(w, r)
		return
	}
	switch s.fault {
	case Busy:
		w.Header().Set("Retry-After", "1")
		w.Header().Set("Connection", "close")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	default:
		send(&failing{ResponseWriter: w, left: (int64(len(Body)) - off) / 2, stall: s.fault == Stall, r: r}, r)
	}
}

// send serves Body to w as net/http does a file (Range, If-Range).
func send(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("ETag", `"v1"`)
	http.ServeContent(w, r, "f", ModTime, strings.NewReader(Body))
}

// failing passes on left bytes of a body, then cuts the connection or,
// with stall, falls silent until the client leaves.
type failing struct {
	http.ResponseWriter
	left  int64
	stall bool
	r     *http.Request
}

func (f *failing) Write(p []byte) (int, error) {
	n := int(min(int64(len(p)), f.left))
	n, err := f.ResponseWriter.Write(p[:n])
	f.left -= int64(n)
	if err != nil || f.left > 0 {
		return n, err
	}
	http.NewResponseController(f.ResponseWriter).Flush()
	if f.stall {
		<-f.r.Context().Done()
	}
	panic(http.ErrAbortHandler) // closes the connection mid-body, unlogged
}
