package httprange

import (
	"net/http"
	"testing"

	"github.com/urlget/urlget/schemes"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in         string
		start, end int64
		ok         bool
	}{
		{"bytes=0-", 0, -1, true}, {"bytes=5-9", 5, 9, true}, {"bytes= 5-", 5, -1, true},
		{"bytes=-5", 0, -1, false}, {"bytes=9-5", 0, -1, false}, {"bytes=1-2,4-5", 0, -1, false},
		{"items=1-2", 0, -1, false}, {"", 0, -1, false}, {"bytes=x-", 0, -1, false},
	} {
		if s, e, ok := Parse(c.in); s != c.start || e != c.end || ok != c.ok {
			t.Errorf("%q: %d %d %v", c.in, s, e, ok)
		}
	}
}

// TestAnswer: 206 only where the response starts where asked and its
// size is known; 416 past the end, whatever the scheme could do; a start
// elsewhere than asked is an error.
func TestAnswer(t *testing.T) {
	for _, c := range []struct {
		offset, size int64
		ranged       bool
		start, end   int64
		want         Reply
		fails        bool
	}{
		{0, 10, false, 0, -1, Reply{Status: http.StatusOK, Length: 10}, false},
		{0, -1, false, 0, -1, Reply{Status: http.StatusOK, Length: -1}, false},
		{4, 10, true, 4, -1, Reply{Status: http.StatusPartialContent, Length: 6, ContentRange: "bytes 4-9/10"}, false},
		{4, 10, true, 4, 5, Reply{Status: http.StatusPartialContent, Length: 2, ContentRange: "bytes 4-5/10"}, false},
		{0, 10, true, 0, 99, Reply{Status: http.StatusPartialContent, Length: 10, ContentRange: "bytes 0-9/10"}, false},
		{0, 10, true, 4, -1, Reply{Status: http.StatusOK, Length: 10}, false}, // not resumed: whole
		{0, 10, true, 10, -1, Reply{Status: http.StatusRequestedRangeNotSatisfiable, Length: -1, ContentRange: "bytes */10"}, false},
		{0, -1, true, 4, -1, Reply{Status: http.StatusOK, Length: -1}, false},
		{3, 10, true, 4, -1, Reply{}, true},
		{4, 10, false, 0, -1, Reply{}, true},
		{4, -1, true, 4, -1, Reply{}, true},
	} {
		got, err := Answer(&schemes.Response{Offset: c.offset, Size: c.size}, c.ranged, c.start, c.end)
		if got != c.want || (err != nil) != c.fails || err != nil && schemes.KindOf(err) != schemes.KindProtocol {
			t.Errorf("offset %d size %d, asked %v %d-%d: %+v %v", c.offset, c.size, c.ranged, c.start, c.end, got, err)
		}
	}
}
