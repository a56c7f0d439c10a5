package ftp

import (
	"testing"

	"github.com/urlget/urlget/internal/schemestest"
)

func TestLocalName(t *testing.T) {
	schemestest.LocalNames(t, Parse, map[string]string{
		"ftp://h/pub/f.txt":                  "f.txt",
		"ftp://h/rfc/rfc1436.txt;type=a":     "rfc1436.txt", // the typecode is no part of the name
		"ftp://h/pub/F.TXT;TYPE=I":           "F.TXT",
		"ftp://h/pub;type=d":                 "pub", // the NLST listing of pub
		"ftp://h/pub/":                       "",    // a directory: nothing to name a file after
		"ftp://h":                            "",
		"ftp://h/%2Fetc/motd":                "motd",
		"ftp://h/a%2Fb":                      "b", // one RETR argument "a/b": no "/" in the local name
		"ftp://h/x%2F..%2F..%2Fetc%2Fpasswd": "passwd",
		"ftp://h/pub/..":                     "",
		"ftp://h/pub/%2E%2E":                 "",
		"ftp://h/a%0D%0Ab":                   "",
		"ftp://h/a%5Cb":                      "b",
		"ftp://u:pw@h/my%20file%3B1.txt":     "my file;1.txt",
		"ftps://h/f.bin":                     "f.bin",
	})
}
