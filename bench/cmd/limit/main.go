// Command limit measures what a server delivers at most: the least a
// client can do to fetch a set of files — on N connections, FTP RETR or
// HTTP/1.1 GET, the bytes spliced into /dev/null — and nothing else (no
// listing, no SIZE or MDTM, no local file, no retry, no check). The bench
// scripts time it beside urlget and give urlget's time as a fraction of
// it: how near urlget comes to the server's limit.
//
//	limit [-n N] URL...        (or -i FILE, one URL a line)
//
// All URLs are of one server: ftp://[user[:pass]@]host:port/path (the path
// as RETR's argument, "%2F" for a leading "/") or http://host:port/path.
// Each connection logs in (FTP) or connects (HTTP) once and takes the next
// URL as it is free. It prints "SECONDS BYTES FILES" on stdout.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	n := flag.Int("n", 1, "connections")
	list := flag.String("i", "", "read the URLs from `FILE`, one a line")
	flag.Parse()
	raw := flag.Args()
	if *list != "" {
		b, err := os.ReadFile(*list)
		if err != nil {
			fail(err)
		}
		raw = append(raw, strings.Fields(string(b))...)
	}
	if len(raw) == 0 {
		fail(errors.New("usage: limit [-n N] [-i FILE] URL..."))
	}
	urls := make([]*url.URL, len(raw))
	for i, r := range raw {
		u, err := url.Parse(r)
		if err != nil {
			fail(err)
		}
		if u.Scheme != "ftp" && u.Scheme != "http" {
			fail(fmt.Errorf("%s: ftp or http only", r))
		}
		urls[i] = u
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fail(err)
	}
	jobs := make(chan *url.URL)
	var total atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, *n)
	begin := time.Now()
	for range *n {
		wg.Go(func() {
			fetch := ftpSession
			if urls[0].Scheme == "http" {
				fetch = httpSession
			}
			if err := fetch(urls[0], jobs, devnull, &total); err != nil {
				errs <- err
				for range jobs { // let the others finish
				}
			}
		})
	}
	for _, u := range urls {
		jobs <- u
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		fail(err)
	}
	fmt.Printf("%.4f %d %d\n", time.Since(begin).Seconds(), total.Load(), len(urls))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "limit:", err)
	os.Exit(1)
}

// ftpSession logs in to first's server and retrieves each URL of jobs on
// that one control connection, each over an EPSV data connection whose
// EPSV went with the RETR before (as urlget's mirror sends it).
func ftpSession(first *url.URL, jobs <-chan *url.URL, sink *os.File, total *atomic.Int64) error {
	c, err := net.Dial("tcp", first.Host)
	if err != nil {
		return err
	}
	defer c.Close()
	r := bufio.NewReader(c)
	cmd := func(line string, want ...int) (int, string, error) {
		if line != "" {
			if _, err := io.WriteString(c, line+"\r\n"); err != nil {
				return 0, "", err
			}
		}
		code, text, err := reply(r)
		if err == nil && !has(want, code) {
			err = fmt.Errorf("%q: %d %s", line, code, text)
		}
		return code, text, err
	}
	user, pass := "anonymous", "limit@"
	if first.User != nil {
		user = first.User.Username()
		if p, ok := first.User.Password(); ok {
			pass = p
		}
	}
	if _, _, err := cmd("", 220); err != nil {
		return err
	}
	if code, _, err := cmd("USER "+user, 230, 331); err != nil {
		return err
	} else if code == 331 {
		if _, _, err := cmd("PASS "+pass, 230); err != nil {
			return err
		}
	}
	if _, _, err := cmd("TYPE I", 200); err != nil {
		return err
	}
	host, _, _ := net.SplitHostPort(first.Host)
	epsvPort := func(text string) string {
		return text[strings.LastIndex(text[:strings.LastIndex(text, "|")], "|")+1 : strings.LastIndex(text, "|")]
	}
	_, text, err := cmd("EPSV", 229)
	if err != nil {
		return err
	}
	port := epsvPort(text)
	for u := range jobs {
		dc, err := net.Dial("tcp", net.JoinHostPort(host, port))
		if err != nil {
			return err
		}
		p, err := url.PathUnescape(strings.TrimPrefix(u.EscapedPath(), "/"))
		if err != nil {
			dc.Close()
			return err
		}
		// The next file's EPSV goes with RETR: its 229 comes with the
		// 226, and the next data connection starts at once (the last
		// one is asked for in vain).
		if _, _, err := cmd("RETR "+p+"\r\nEPSV", 125, 150); err != nil {
			dc.Close()
			return err
		}
		n, err := io.Copy(sink, dc) // spliced: the bytes never reach this process
		dc.Close()
		if err != nil {
			return err
		}
		total.Add(n)
		if _, _, err := cmd("", 226, 250); err != nil {
			return err
		}
		if _, text, err = cmd("", 229); err != nil {
			return err
		}
		port = epsvPort(text)
	}
	cmd("QUIT", 221)
	return nil
}

// reply reads one FTP reply, multi-line ones whole.
func reply(r *bufio.Reader) (int, string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return 0, "", err
	}
	if len(line) < 4 {
		return 0, "", fmt.Errorf("reply %q", line)
	}
	code, err := strconv.Atoi(line[:3])
	if err != nil {
		return 0, "", fmt.Errorf("reply %q", line)
	}
	if line[3] == '-' {
		end := line[:3] + " "
		for !strings.HasPrefix(line, end) {
			if line, err = r.ReadString('\n'); err != nil {
				return 0, "", err
			}
		}
	}
	return code, strings.TrimSpace(line[4:]), nil
}

func has(codes []int, c int) bool {
	for _, x := range codes {
		if x == c {
			return true
		}
	}
	return false
}

// httpSession GETs each URL of jobs on one kept-alive connection to
// first's server, reading each body by its Content-Length.
func httpSession(first *url.URL, jobs <-chan *url.URL, sink *os.File, total *atomic.Int64) error {
	c, err := net.Dial("tcp", first.Host)
	if err != nil {
		return err
	}
	defer c.Close()
	r := bufio.NewReaderSize(c, 64<<10)
	for u := range jobs {
		if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", u.RequestURI(), u.Host); err != nil {
			return err
		}
		status, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		if !strings.HasPrefix(status, "HTTP/1.1 200") {
			return fmt.Errorf("%s: %s", u, strings.TrimSpace(status))
		}
		size := int64(-1)
		for {
			h, err := r.ReadString('\n')
			if err != nil {
				return err
			}
			h = strings.TrimSpace(h)
			if h == "" {
				break
			}
			if k, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(k, "Content-Length") {
				size, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			}
		}
		if size < 0 {
			return fmt.Errorf("%s: no Content-Length", u)
		}
		// What the reader holds first, then the rest spliced from the
		// socket.
		buffered := min(int64(r.Buffered()), size)
		if _, err := r.Discard(int(buffered)); err != nil {
			return err
		}
		n, err := io.CopyN(sink, c, size-buffered)
		if err != nil {
			return err
		}
		total.Add(buffered + n)
	}
	return nil
}
