package schemes

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ByteRange is a run of a resource's bytes, as HTTP's byte-range-spec
// (RFC 9110 §14.1.1) and curl's -r write it: "N-M" is bytes N through M,
// counted from 0; "N-" is byte N to the end; "-N" is the last N bytes. Its
// fields are those of Request.Offset, Length and Suffix; the zero
// ByteRange is the whole resource ("0-").
type ByteRange struct {
	// First is the first byte (0 for a suffix range).
	First int64
	// Length is how many bytes from First; 0 runs to the resource's end.
	Length int64
	// Suffix, when positive, makes this the last Suffix bytes (all of
	// them when the resource is shorter); First and Length are 0.
	Suffix int64
}

// String writes r as ParseByteRanges reads it: "0-499", "500-", "-500".
func (r ByteRange) String() string {
	switch {
	case r.Suffix > 0:
		return "-" + strconv.FormatInt(r.Suffix, 10)
	case r.Length > 0:
		return strconv.FormatInt(r.First, 10) + "-" + strconv.FormatInt(r.First+r.Length-1, 10)
	}
	return strconv.FormatInt(r.First, 10) + "-"
}

// FormatByteRanges writes rs as ParseByteRanges reads them, separated by
// commas: the value of HTTP's Range after "bytes=".
func FormatByteRanges(rs []ByteRange) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// ParseByteRanges reads one byte range or a list of them separated by
// commas, in curl's -r syntax (HTTP's byte-range-set without "bytes="):
// "0-499", "500-", "-500", "0-0,-1". Only the digits 0-9 make a number,
// as curl's documentation says, and spaces around a range are allowed,
// as HTTP allows them around commas. A range that ends before it starts,
// a suffix of no bytes ("-0"), an empty element and a number too large
// for 63 bits are errors; so is a range whose end is 2^63-1, whose length
// does not fit.
func ParseByteRanges(s string) ([]ByteRange, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("no range: want N-M, N- or -N")
	}
	var rs []ByteRange
	for _, part := range strings.Split(s, ",") {
		r, err := parseByteRange(strings.Trim(part, " \t"))
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// parseByteRange reads one range of ParseByteRanges.
func parseByteRange(s string) (ByteRange, error) {
	first, last, ok := strings.Cut(s, "-")
	if !ok {
		return ByteRange{}, fmt.Errorf("%q: want N-M, N- or -N", s)
	}
	if first == "" {
		n, err := rangeNumber(s, last)
		switch {
		case err != nil:
			return ByteRange{}, err
		case n == 0:
			return ByteRange{}, fmt.Errorf("%q: the last 0 bytes are no bytes", s)
		}
		return ByteRange{Suffix: n}, nil
	}
	a, err := rangeNumber(s, first)
	if err != nil {
		return ByteRange{}, err
	}
	if last == "" {
		return ByteRange{First: a}, nil
	}
	b, err := rangeNumber(s, last)
	switch {
	case err != nil:
		return ByteRange{}, err
	case b < a:
		return ByteRange{}, fmt.Errorf("%q: the range ends before it starts", s)
	case b == math.MaxInt64:
		return ByteRange{}, fmt.Errorf("%q: the range is too long", s) // its end, b+1, would not fit
	}
	return ByteRange{First: a, Length: b - a + 1}, nil
}

// rangeNumber reads a number of the range s: digits only.
func rangeNumber(s, digits string) (int64, error) {
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Errorf("%q: want N-M, N- or -N, N and M digits 0-9", s)
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %s is too large", s, digits)
	}
	return n, nil
}

// Ranged says whether req asks for a byte range of the resource rather
// than all of it or the rest of a partial copy: an Offset without a
// Partial, a Length, a Suffix or Ranges.
func (req *Request) Ranged() bool {
	if len(req.Ranges) > 0 || req.Suffix > 0 {
		return true
	}
	return req.Partial == (Partial{}) && (req.Offset > 0 || req.Length > 0)
}

// Range is req's byte range (Offset, Length, Suffix), the zero ByteRange
// when it asks for the whole resource.
func (req *Request) Range() ByteRange {
	return ByteRange{First: req.Offset, Length: req.Length, Suffix: req.Suffix}
}

// RangeError is the failure of req's byte range on a resource of size
// bytes (-1: unknown): nil unless req is Ranged with a first byte at or
// past the end, where there is no byte to send (HTTP's 416 Range Not
// Satisfiable); a suffix range never fails (it is all of a shorter
// resource, and nothing of an empty one). code is the reply code to
// report (416 for HTTP, 0 for none).
func (req *Request) RangeError(scheme string, size int64, code int) error {
	if !req.Ranged() || req.Suffix > 0 || len(req.Ranges) > 0 || size < 0 || req.Offset < size {
		return nil
	}
	return &Error{Scheme: scheme, Phase: "range", Kind: KindProtocol, Code: code,
		Msg: fmt.Sprintf("range %s not satisfiable", req.Range()), Err: &RangeNotSatisfiable{Size: size}}
}

// RangeNotSatisfiable is in the chain of the error of a byte range that
// starts at or past the end of the resource (Request.RangeError): Size is
// the resource's size, for a caller that answers it as HTTP does (416
// with Content-Range "bytes */Size").
// Err, if set, is what else the failure is (an HTTP 416 is an error
// status too: ErrErrorStatus).
type RangeNotSatisfiable struct {
	Size int64
	Err  error
}

func (r *RangeNotSatisfiable) Error() string {
	return fmt.Sprintf("the resource has %d bytes", r.Size)
}

// Unwrap returns Err.
func (r *RangeNotSatisfiable) Unwrap() error { return r.Err }

// Whole is a copy of req that asks for all of the resource, whatever its
// time: no byte range, no partial copy to continue, no time condition
// (a listing is read whole; a partial copy that cannot be continued is
// asked for again from its start).
func (req *Request) Whole() *Request {
	w := *req
	w.Offset, w.Length, w.Suffix, w.Ranges, w.Partial = 0, 0, 0, nil, Partial{}
	w.IfModifiedSince, w.IfUnmodifiedSince = time.Time{}, time.Time{}
	return &w
}
