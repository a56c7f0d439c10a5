// Command rawget is a plain socket reader for bench/serve.sh: it sends one
// HTTP/1.1 GET with "Connection: close" and copies what follows the
// response's header to a file with read(2)s of a fixed size, no HTTP
// library between the socket and the file, as a small client written in
// any language would:
//
//	rawget [-b BYTES] http://host:port/path FILE
//
// It fails unless the status is 200. The body is what comes until the
// server closes (the gateway sends Content-Length; the length is checked
// when there is one).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
)

func main() {
	size := flag.Int("b", 64<<10, "bytes a read")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: rawget [-b BYTES] http://host:port/path FILE")
		os.Exit(2)
	}
	if err := get(flag.Arg(0), flag.Arg(1), *size); err != nil {
		fmt.Fprintln(os.Stderr, "rawget:", err)
		os.Exit(1)
	}
}

func get(raw, file string, size int) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" {
		return fmt.Errorf("not an http URL: %q", raw)
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", u.RequestURI(), u.Host); err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, size)
	var head []byte
	var body, want int64 = 0, -1
	inHead := true
	for {
		n, rerr := c.Read(buf)
		chunk := buf[:n]
		if inHead {
			head = append(head, chunk...)
			end := bytes.Index(head, []byte("\r\n\r\n"))
			if end < 0 {
				if rerr != nil {
					return fmt.Errorf("no response header: %v", rerr)
				}
				continue
			}
			if want, err = status(head[:end]); err != nil {
				return err
			}
			chunk, head, inHead = head[end+4:], nil, false
		}
		if _, err := f.Write(chunk); err != nil {
			return err
		}
		body += int64(len(chunk))
		if rerr != nil {
			break
		}
	}
	if want >= 0 && body != want {
		return fmt.Errorf("%d bytes of %d", body, want)
	}
	return f.Close()
}

// status checks a 200 and returns Content-Length, -1 if none.
func status(head []byte) (int64, error) {
	lines := bytes.Split(head, []byte("\r\n"))
	if f := bytes.Fields(lines[0]); len(f) < 2 || string(f[1]) != "200" {
		return 0, fmt.Errorf("status line %q", lines[0])
	}
	for _, l := range lines[1:] {
		if k, v, ok := bytes.Cut(l, []byte(":")); ok && bytes.EqualFold(bytes.TrimSpace(k), []byte("Content-Length")) {
			return strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
		}
	}
	return -1, nil
}
