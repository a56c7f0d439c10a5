// Command rawget is the least a client can do to fetch a list of files,
// for the benches' "limit" row: what the server delivers at most, which a
// real client's time is reported against. It reads URLs (ftp:// or
// http://, one server each run) one a line from -i and fetches them on -n
// connections at once into -d, each file named after its URL's last
// segment: over FTP one login per connection, then only EPSV and RETR per
// file (no SIZE, MDTM, CWD, no checks); over HTTP net/http's keep-alive
// GETs. It checks nothing — the bench checks what it wrote.
//
//	rawget -n 8 -i urls.txt -d out
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

func main() {
	n := flag.Int("n", 8, "connections at once")
	list := flag.String("i", "", "the URL list, one a line")
	dir := flag.String("d", ".", "where the files go")
	flag.Parse()
	b, err := os.ReadFile(*list)
	if err != nil {
		fail(err)
	}
	urls := make(chan *url.URL, 1024)
	var first *url.URL
	for _, line := range strings.Fields(string(b)) {
		u, err := url.Parse(line)
		if err != nil {
			fail(err)
		}
		if first == nil {
			first = u
		}
		urls <- u
	}
	close(urls)
	if first == nil {
		return
	}
	// Every connection kept between files (net/http keeps 2 by default).
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *n}}
	fetch := func(_ string, urls <-chan *url.URL, dir string) error { return httpWorker(client, urls, dir) }
	if first.Scheme == "ftp" {
		fetch = ftpWorker
	}
	var wg sync.WaitGroup
	errs := make(chan error, *n)
	for range *n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fetch(first.Host, urls, *dir); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "rawget:", err)
	os.Exit(1)
}

// save writes what r gives to dir, under u's last segment.
func save(dir string, u *url.URL, r io.Reader) error {
	f, err := os.Create(filepath.Join(dir, path.Base(u.Path)))
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// httpWorker GETs its share of urls through client.
func httpWorker(client *http.Client, urls <-chan *url.URL, dir string) error {
	for u := range urls {
		resp, err := client.Get(u.String())
		if err != nil {
			return err
		}
		err = save(dir, u, resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// ftpWorker logs in once and fetches its share of urls with EPSV and RETR
// of the path as it is (from the login's directory, the server's root).
func ftpWorker(host string, urls <-chan *url.URL, dir string) error {
	c, err := net.Dial("tcp", host)
	if err != nil {
		return err
	}
	defer c.Close()
	r := bufio.NewReader(c)
	reply := func() (string, error) {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return "", err
			}
			// The last line of a reply: three digits and a space.
			if len(line) > 3 && line[3] == ' ' {
				return line, nil
			}
		}
	}
	cmd := func(s string) (string, error) {
		if _, err := io.WriteString(c, s+"\r\n"); err != nil {
			return "", err
		}
		return reply()
	}
	if _, err := reply(); err != nil { // the greeting
		return err
	}
	if line, err := cmd("USER anonymous"); err != nil {
		return err
	} else if strings.HasPrefix(line, "331") {
		if _, err := cmd("PASS rawget@"); err != nil {
			return err
		}
	}
	if _, err := cmd("TYPE I"); err != nil {
		return err
	}
	for u := range urls {
		line, err := cmd("EPSV")
		if err != nil {
			return err
		}
		// 229 Entering Extended Passive Mode (|||PORT|)
		_, rest, _ := strings.Cut(line, "(|||")
		port, _, _ := strings.Cut(rest, "|")
		h, _, _ := net.SplitHostPort(host)
		d, err := net.Dial("tcp", net.JoinHostPort(h, port))
		if err != nil {
			return fmt.Errorf("%s: %v", strings.TrimSpace(line), err)
		}
		if line, err := cmd("RETR " + strings.TrimPrefix(u.Path, "/")); err != nil {
			d.Close()
			return err
		} else if !strings.HasPrefix(line, "150") && !strings.HasPrefix(line, "125") {
			d.Close()
			return fmt.Errorf("RETR %s: %s", u.Path, strings.TrimSpace(line))
		}
		err = save(dir, u, d)
		d.Close()
		if err != nil {
			return err
		}
		if _, err := reply(); err != nil { // 226
			return err
		}
	}
	_, err = cmd("QUIT")
	return err
}
