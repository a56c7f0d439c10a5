package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/schemes"
)

// exampleFile makes a file for the examples to retrieve with a file: URL,
// so they run anywhere without a network.
func exampleFile(content string) (dir, url string) {
	dir, _ = os.MkdirTemp("", "urlget-example-")
	name := filepath.Join(dir, "greeting.txt")
	os.WriteFile(name, []byte(content), 0o644)
	return dir, "file://" + filepath.ToSlash(name)
}

func ExampleClient_Get() {
	dir, url := exampleFile("hello, RFC 1738\n")
	defer os.RemoveAll(dir)

	var c fetch.Client // the zero value is ready to use
	resp, err := c.Get(context.Background(), url)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Printf("%d bytes: %s", resp.Size, body)
	// Output: 16 bytes: hello, RFC 1738
}

func ExampleClient_Do() {
	dir, url := exampleFile("0123456789 the rest\n")
	defer os.RemoveAll(dir)

	var c fetch.Client
	req, err := c.NewRequest(fetch.MethodGet, url)
	if err != nil {
		fmt.Println(err)
		return
	}
	req.Offset = 11 // the first 11 bytes are held already
	resp, err := c.Do(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Close()
	rest, _ := io.ReadAll(resp.Body)
	fmt.Printf("from byte %d of %d: %s", resp.Offset, resp.Size, rest)
	// Output: from byte 11 of 20: the rest
}

func ExampleClient_Do_stat() {
	dir, url := exampleFile("twelve bytes")
	defer os.RemoveAll(dir)

	var c fetch.Client
	loc, err := c.Parse(url) // or an Entry's Locator, from a listing
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := c.Do(context.Background(), &fetch.Request{Method: fetch.MethodStat, URL: loc})
	if err != nil {
		fmt.Println(err)
		return
	}
	e := resp.Entry() // a stat's Response has no body and is closed already
	fmt.Println(e.Kind, e.Name, e.Size)
	// Output: file greeting.txt 12
}

func ExampleClient_Download() {
	dir, url := exampleFile("saved whole or not at all\n")
	defer os.RemoveAll(dir)

	c := &fetch.Client{Retries: 2}
	dest := filepath.Join(dir, "copy.txt")
	res, err := c.Download(context.Background(), url, dest, fetch.DownloadOptions{Resume: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(dest)
	fmt.Printf("%s holds %d bytes: %s", filepath.Base(res.Path), res.Size, b)
	// Output: copy.txt holds 26 bytes: saved whole or not at all
}

func ExampleClient_Get_errors() {
	var c fetch.Client
	_, err := c.Get(context.Background(), "file:///no/such/file")

	var se *schemes.Error
	if errors.As(err, &se) {
		fmt.Println("kind:", se.Kind, "exit:", se.Kind.ExitCode())
	}
	fmt.Println("not exist:", errors.Is(err, fs.ErrNotExist))

	_, err = c.Get(context.Background(), "ftp://user:secret@h/x;type=q")
	fmt.Println(err)
	// Output:
	// kind: not_found exit: 3
	// not exist: true
	// ftp://user:****@h/x;type=q: bad typecode "q" (want a, i or d)
}

func ExampleClient_Explain() {
	var c fetch.Client
	plan, err := c.Explain("http://www.example.com/a%20b?q#fragment")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, step := range plan {
		fmt.Println(step)
	}
	// Output:
	// connect www.example.com:80
	// GET /a%20b?q HTTP/1.1
	// Host: www.example.com
	// User-Agent: urlget/0.1
}

func ExampleClient_List() {
	dir, _ := exampleFile("a greeting\n")
	defer os.RemoveAll(dir)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)

	var c fetch.Client
	resp, err := c.List(context.Background(), "file://"+filepath.ToSlash(dir)+"/")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Listing.Close()
	var lines []string
	for e, err := range schemes.Entries(resp.Listing) {
		if err != nil {
			fmt.Println(err)
			return
		}
		lines = append(lines, fmt.Sprintf("%s %s %d", e.Kind, e.Name, e.Size))
	}
	slices.Sort(lines) // entries come in the server's (here: the directory's) order
	for _, l := range lines {
		fmt.Println(l)
	}
	// Output:
	// dir sub -1
	// file greeting.txt 11
}

func ExampleClient_Stat() {
	dir, url := exampleFile("twelve bytes")
	defer os.RemoveAll(dir)

	var c fetch.Client
	e, err := c.Stat(context.Background(), url)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Kind, e.Name, e.Size, e.Locator.Redacted() == url)
	// Output: file greeting.txt 12 true
}

func ExampleProtocols() {
	var c fetch.Client
	// A script that takes URLs from users lets them name http and https only,
	// and no server may redirect it anywhere else.
	only, err := fetch.ParseProtocols("=http,https", c.AllProtocols(), c.AllProtocols())
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Protocols, c.RedirectProtocols = only, only
	_, err = c.Get(context.Background(), "ftp://ftp.example/pub/file")
	fmt.Println(err)
	fmt.Println("redirects by default:", c.DefaultRedirectProtocols().Has("telnet"), c.DefaultRedirectProtocols().Has("ftp"))
	// Output:
	// ftp://ftp.example/pub/file: scheme ftp is not allowed (allowed: http,https)
	// redirects by default: false true
}
