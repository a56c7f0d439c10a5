package testbed

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite integration/servers/toxiproxy/proxies.json from ToxiproxyProxies")

// TestToxiproxyConfig keeps the toxiproxy service's config file (golden)
// equal to ToxiproxyProxies, the list the tests use: a proxy the tests know
// but the service lacks would fail them only at run time.
// go test ./integration/testbed -run TestToxiproxyConfig -update rewrites it.
func TestToxiproxyConfig(t *testing.T) {
	want, err := json.MarshalIndent(ToxiproxyProxies(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *update {
		if err := os.WriteFile(ToxiproxyConfigFile(), want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(ToxiproxyConfigFile())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from ToxiproxyProxies (run with -update)", ToxiproxyConfigFile())
	}
	var back []ToxiproxyProxy // round trip: the file reads back as the list
	if err := json.Unmarshal(got, &back); err != nil || len(back) != 4+VsftpdPasvMax-VsftpdPasvMin+1 {
		t.Fatalf("reading back: %d proxies, %v", len(back), err)
	}
	names := map[string]bool{}
	for _, p := range back {
		if names[p.Name] {
			t.Errorf("proxy name %s twice", p.Name)
		}
		names[p.Name] = true
	}
}
