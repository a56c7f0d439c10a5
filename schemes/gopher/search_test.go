package gopher

import "testing"

func TestWithSearch(t *testing.T) {
	for _, c := range []struct{ url, words, want string }{
		{"gopher://h/7/find", "two words", "gopher://h/7/find%09two%20words"},
		{"gopher://h:7071/7/find%09old%09+", "tab\there", "gopher://h:7071/7/find%09tab%09here"},
	} {
		g, err := parse(t, c.url)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.WithSearch(c.words)
		if err != nil || got.String() != c.want {
			t.Errorf("%s WithSearch(%q) = %v, %v; want %s", c.url, c.words, got, err, c.want)
		}
	}
	g, _ := parse(t, "gopher://h/1/menu")
	if got, err := g.WithSearch("x"); err == nil {
		t.Errorf("a menu took search words: %v", got)
	}
}
