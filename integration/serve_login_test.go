//go:build integration

package integration

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/urlget/urlget/gateway"
	"github.com/urlget/urlget/integration/testbed"
)

// TestGatewayFTPLoginNotInPages: alice's FTP login typed into the gateway
// with her password: the browser is sent to the address without it, her
// home directory's page holds it nowhere (links, title), and its links
// lead to her files, which the gateway fetches with the password it
// remembered — on each of the three FTP servers.
func TestGatewayFTPLoginNotInPages(t *testing.T) {
	base := startGateway(t, gateway.Options{})
	for _, port := range []int{testbed.VsftpdPort, testbed.ProftpdPort, testbed.PureftpdPort} {
		t.Run(fmt.Sprint(port), func(t *testing.T) {
			hostport := testbed.Addr(port)
			typed := fmt.Sprintf("ftp://%s:%s@%s/", testbed.AliceUser, testbed.AlicePassword, hostport)
			resp, err := http.Get(base + gateway.Address(typed))
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := gateway.Address(fmt.Sprintf("ftp://%s@%s/", testbed.AliceUser, hostport))
			if resp.StatusCode != 200 || resp.Request.URL.RequestURI() != want {
				t.Fatalf("%d at %s, want 200 at %s\n%s", resp.StatusCode, resp.Request.URL.RequestURI(), want, page)
			}
			if strings.Contains(string(page), testbed.AlicePassword) {
				t.Fatalf("the page holds the password:\n%s", page)
			}
			link := gateway.Address(fmt.Sprintf("ftp://%s@%s/README.txt", testbed.AliceUser, hostport))
			if !strings.Contains(string(page), `href="`+link+`"`) {
				t.Fatalf("no link %s on the page:\n%s", link, page)
			}
			resp, err = http.Get(base + link)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || string(body) != testbed.AliceReadme {
				t.Errorf("README.txt by the link: %d %q, want alice's", resp.StatusCode, body)
			}
		})
	}
}
