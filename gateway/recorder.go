package gateway

import (
	"io"
	"net/http"
)

// recorder is a ResponseWriter that counts what a request was answered:
// its status and the bytes of its body. It keeps the writer's fast path
// (ReadFrom, which moves an FTP body socket to socket in the kernel) and,
// through Unwrap, what http.ResponseController reaches (Flush, deadlines).
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

// WriteHeader records the first final status (a 1xx is an interim one).
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 && code >= 200 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}

// ReadFrom hands src to the writer's own ReadFrom when it has one.
func (r *recorder) ReadFrom(src io.Reader) (int64, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	var n int64
	var err error
	if rf, ok := r.ResponseWriter.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(src)
	} else {
		n, err = io.Copy(struct{ io.Writer }{r.ResponseWriter}, src)
	}
	r.bytes += n
	return n, err
}

// Unwrap is the ResponseWriter under r, for http.ResponseController.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// code is the status the client got: 200 when the handler wrote
// nothing, as net/http answers then.
func (r *recorder) code() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}
