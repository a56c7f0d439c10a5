package gateway_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/urlget/urlget/gateway"
)

// ExampleNew serves the gateway on a test server and reads a file: URL
// through it, so that it runs without a network; any other URL is read
// the same way, at its gateway Address. file: needs AllowFile, since
// whoever reaches the gateway could read this machine's files.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "urlget-gateway-")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello through HTTP\n"), 0o644)

	srv := httptest.NewUnstartedServer(nil)
	srv.Config.Handler = gateway.New(gateway.Options{
		Hosts:     gateway.HostsFor(srv.Listener.Addr()), // the Host names it answers to
		AllowFile: true,
	})
	srv.Start()
	defer srv.Close()

	url := "file://" + filepath.ToSlash(dir) + "/hello.txt"
	resp, err := srv.Client().Get(srv.URL + gateway.Address(url))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Printf("%s: %s", resp.Status, body)
	// Output: 200 OK: hello through HTTP
}
