package wais

import "testing"

func TestWithSearch(t *testing.T) {
	for _, c := range []struct{ url, words, want string }{
		{"wais://h:210/db", "two words", "wais://h/db?two+words"},
		{"wais://h/db?old", "a+b/c?", "wais://h/db?a%2Bb%2Fc%3F"},
		{"wais://h/db/TEXT/3/x=y;", "gopher", "wais://h/db?gopher"},
	} {
		w, err := parse(t, c.url)
		if err != nil {
			t.Fatal(err)
		}
		got, err := w.WithSearch(c.words)
		if err != nil || got.String() != c.want {
			t.Errorf("%s WithSearch(%q) = %v, %v; want %s", c.url, c.words, got, err, c.want)
			continue
		}
		if s := *got.(*URL).Search; s != c.words {
			t.Errorf("search reads back as %q", s)
		}
	}
}
