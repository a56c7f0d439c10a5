package fetch_test

import (
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/urlget/urlget/fetch"
)

func ExampleClient_RoundTripper() {
	dir, url := exampleFile("fetched through net/http\n")
	defer os.RemoveAll(dir)

	var c fetch.Client
	t := &http.Transport{}
	rt := c.RoundTripper()
	for _, scheme := range []string{"ftp", "ftps", "gopher", "gophers", "news", "nntp", "wais", "prospero", "file"} {
		t.RegisterProtocol(scheme, rt)
	}
	hc := &http.Client{Transport: t}

	resp, err := hc.Get(url)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Printf("%s, %s, %d bytes: %s", resp.Status, resp.Header.Get("Content-Type"), resp.ContentLength, body)

	resp, err = hc.Get(url + ".missing")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.Status)
	// Output:
	// 200 OK, text/plain; charset=utf-8, 25 bytes: fetched through net/http
	// 404 Not Found
}
