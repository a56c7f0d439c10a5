package schemes

import (
	"context"
	"testing"
)

func TestWithNext(t *testing.T) {
	u, err := Parse("ftp://h/a")
	if err != nil {
		t.Fatal(err)
	}
	loc := testLocator{u}
	tests := []struct {
		name string
		next []Locator
		want int
	}{
		{"none", nil, 0},
		{"empty", []Locator{}, 0},
		{"two", []Locator{loc, loc}, 2},
	}
	for _, tt := range tests {
		ctx := WithNext(context.Background(), tt.next)
		if got := NextOf(ctx); len(got) != tt.want {
			t.Errorf("%s: NextOf has %d, want %d", tt.name, len(got), tt.want)
		}
	}
	if NextOf(context.Background()) != nil {
		t.Error("NextOf of a plain context is not nil")
	}
}
