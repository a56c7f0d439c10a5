package schemes

import "testing"

func TestBaseName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"f.txt", "f.txt"},
		{"a b.tar.gz", "a b.tar.gz"},
		{"dir/f.txt", "f.txt"},
		{"../../etc/passwd", "passwd"},
		{`..\..\boot.ini`, "boot.ini"},
		{"dir/", ""},
		{"", ""},
		{".", ""},
		{"..", ""},
		{"a/..", ""},
		{".hidden", ".hidden"},
		{"a\x00b", ""},
		{"a\nb", ""},
		{"a\x1b[2Jb", ""},
		{"a\x7fb", ""},
		{"naïve.txt", "naïve.txt"},
		{"100%.txt", "100%.txt"},
	} {
		got := BaseName(tc.name)
		if got != tc.want {
			t.Errorf("BaseName(%q) = %q, want %q", tc.name, got, tc.want)
		}
		// Round trip: a name BaseName gives is one it keeps.
		if again := BaseName(got); again != got {
			t.Errorf("BaseName(%q) = %q, not a fixed point", got, again)
		}
	}
}

func TestLastSegmentName(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"pub/f.txt", "f.txt"},
		{"f%20g.txt", "f g.txt"},
		{"pub/", ""},
		{"", ""},
		{"a%2Fb", "b"},                           // a decoded "/" is no directory
		{"x%2F..%2F..%2Fetc%2Fpasswd", "passwd"}, // nor a way out
		{"%2E%2E", ""},
		{"a%5Cb", "b"},
		{"a%00b", ""},
		{"a%0Ab", ""},
		{"bad%zz", ""},
	} {
		if got := LastSegmentName(tc.path); got != tc.want {
			t.Errorf("LastSegmentName(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}
