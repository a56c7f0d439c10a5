package ftp

import (
	"bufio"
	"os"
	"regexp"
	"strings"
	"testing"
)

// unixLineRE is the regular expression matchUnix once was, kept as its
// specification: FuzzMatchUnix holds the two to the same lines and parts.
var unixLineRE = regexp.MustCompile(`^([-dlbcpsD])[-rwxsStTlL]{9}[+@.]?\s+\d+\s+(?:\S+\s+){0,2}?(\d+|\d+,\s*\d+)\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}:\d{2}|\d{4})\s(.+)$`)

// unixCases are lines at the edges of the format: owners and groups
// missing or with spaces around numbers, devices, ACL marks, names with
// leading spaces, arrows and newlines, and near misses of each part.
var unixCases = []string{
	"-rw-r--r--    1 ftp      ftp          1234 Nov 20 10:15 readme.txt",
	"drwxr-xr-x    2 0        0            4096 Jan 01  2020 pub",
	"lrwxrwxrwx    1 root     root            7 Mar  3 12:00 latest -> v2.0",
	"-rw-r--r--    1 owner   512 Dec 31 23:59 no group",
	"-rw-r--r--    1 512 Dec 31 23:59 neither",
	"-rw-r--r--    1 a b c 512 Dec 31 23:59 three words",
	"-rw-r--r--    1 a b c d 512 Dec 31 23:59 four words",
	"crw-rw-rw-    1 root     root       1,   3 Nov  5 09:00 null",
	"brw-rw----    1 root     disk       8,0 Nov  5 09:00 sda",
	"brw-rw----    1 root     disk       8, x Nov  5 09:00 bad device",
	"-rw-r--r--+   1 u g 10 Feb  2 2021  leading space",
	"-rw-r--r--@ 1 u g 10 Feb  2 02:02 mac",
	"-rw-r--r--. 1 u g 10 Feb 29 2024 selinux",
	"-rw-r--r--x 1 u g 10 Feb 29 2024 bad mark",
	"-rw-r--r-- 1 u g 10 Feb 29 12:345 bad clock",
	"-rw-r--r-- 1 u g 10 Feb 123 12:34 bad day",
	"-rw-r--r-- 1 u g 10 Fe 12 12:34 short month",
	"-rw-r--r-- 1 u g 10 Febr 12 12:34 long month",
	"-rw-r--r-- 1 u g 10 Feb 12 12:34",
	"-rw-r--r-- 1 u g 10 Feb 12 12:34 ",
	"-rw-r--r-- 1 u g 10 Feb 12 12:34\ttab name",
	"-rw-r--r-- 1 u g 10 Feb 12 12:34 new\nline",
	"-rw-r--r-- 1 u g 10 Feb 12 12:34 1 u g 10 Feb 12 12:34 x",
	"-rw-r--r-- 1 u 10 10 Feb 12 12:34 numeric group",
	"-rw-r--r-- 1 10 10 Feb 12 12:34 x",
	"-rw-r--r--\t1\tu\tg\t10\tFeb\t12\t2024\tx",
	"-rw-r--r-- 1 u g 10 Feb 12 1:05 one-digit hour",
	"?rw-r--r-- 1 u g 10 Feb 12 12:34 bad type",
	"-rw-r--r-Q 1 u g 10 Feb 12 12:34 bad mode",
	"-rw-r--r-- x u g 10 Feb 12 12:34 bad links",
	"-rw-r--r--1 u g 10 Feb 12 12:34 no space",
	"Drwxr-xr-x 1 u g 10 Feb 12 12:34 caps D",
	"-rw-r--r-- 1 u g 99999999999999999999 Feb 12 12:34 huge",
	"-rw-r--r-- 1 u g 10 feb 12 12:34 lower month",
	"-rw-r--r-- 1 u g 10 Feb 12 12:34 \xff\xfe invalid utf-8",
	"",
	"total 12",
}

// regexpMatch is the regular expression's verdict in matchUnix's form.
func regexpMatch(line string) (unixMatch, bool) {
	m := unixLineRE.FindStringSubmatch(line)
	if m == nil {
		return unixMatch{}, false
	}
	return unixMatch{typ: m[1][0], size: m[2], mon: m[3], day: m[4], clock: m[5], name: m[6]}, true
}

func TestMatchUnixAsRegexp(t *testing.T) {
	lines := append([]string(nil), unixCases...)
	f, err := os.Open("testdata/list/unix.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, strings.TrimSuffix(sc.Text(), "\r"))
	}
	matched := 0
	for _, line := range lines {
		got, ok := matchUnix(line)
		want, wok := regexpMatch(line)
		if ok != wok || got != want {
			t.Errorf("%q:\n got %v %+v\nwant %v %+v", line, ok, got, wok, want)
		}
		if ok {
			matched++
		}
	}
	if matched < 20 || matched == len(lines) {
		t.Errorf("%d of %d lines matched: the cases should hold both kinds", matched, len(lines))
	}
}

// FuzzMatchUnix holds matchUnix to the regular expression it replaced.
func FuzzMatchUnix(f *testing.F) {
	for _, line := range unixCases {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, ok := matchUnix(line)
		want, wok := regexpMatch(line)
		if ok != wok || got != want {
			t.Errorf("%q:\n got %v %+v\nwant %v %+v", line, ok, got, wok, want)
		}
	})
}

func BenchmarkMatchUnix(b *testing.B) {
	line := "-rw-r--r--    1 ftp      ftp          1234 Nov 20 10:15 readme.txt"
	for b.Loop() {
		matchUnix(line)
	}
}
