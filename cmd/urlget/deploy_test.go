package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/urlget/urlget/gateway"
)

// TestDeployManifests keeps deploy/ in step with the command: the
// Deployment's and the Dockerfile's serve flags are flags serve takes,
// with values it accepts, and the probes ask the gateway's own paths.
func TestDeployManifests(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../deploy/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	dep := read("k8s/deployment.yaml")
	var args []string
	for _, m := range regexp.MustCompile(`(?m)^\s+- (--[a-z-]+=\S+)$`).FindAllStringSubmatch(dep, -1) {
		args = append(args, m[1])
	}
	docker := read("Dockerfile")
	cmd := regexp.MustCompile(`(?m)^CMD \[(.*)\]$`).FindStringSubmatch(docker)
	if len(args) < 3 || cmd == nil {
		t.Fatalf("found %d args in deployment.yaml, CMD %q in the Dockerfile", len(args), cmd)
	}
	var image []string
	for _, a := range strings.Split(cmd[1], ",") {
		image = append(image, strings.Trim(strings.TrimSpace(a), `"`))
	}
	for _, args := range [][]string{args, image} {
		if _, err := parseFlagsFor(args, strings.NewReader(""), &strings.Builder{}, &serveFlags{}); err != nil {
			t.Errorf("serve %q: %v", args, err)
		}
	}
	for _, path := range []string{gateway.HealthPath, gateway.ReadyPath} {
		if !strings.Contains(dep, "path: "+path+"\n") {
			t.Errorf("deployment.yaml has no probe of %s", path)
		}
	}
	if !strings.Contains(docker, "http://127.0.0.1:8070"+gateway.HealthPath) || !strings.Contains(docker, `"0.0.0.0:8070"`) {
		t.Errorf("the Dockerfile's HEALTHCHECK does not ask %s on the port it listens on", gateway.HealthPath)
	}
}
