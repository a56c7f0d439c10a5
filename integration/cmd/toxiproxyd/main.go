// Command toxiproxyd runs Shopify's toxiproxy server
// (github.com/Shopify/toxiproxy/v2) for the container test bed, or probes
// one:
//
//	toxiproxyd -listen 127.0.0.1:8474 -config proxies.json
//	toxiproxyd -probe 127.0.0.1:8474 -config proxies.json   (health check)
//
// The proxies named in the config file (toxiproxy's own JSON format, see
// integration/servers/toxiproxy/proxies.json) are created at start; the
// fault-injection tests add and remove toxics through the HTTP API. Beside
// toxiproxy's own toxics it has "handshake" (handshake.go), which
// integration/wan uses to make a new connection cost a round trip.
//
// It is a module of its own (go.mod beside this file) so that the server's
// dependencies (gorilla/mux, zerolog, prometheus) stay out of urlget's
// go.mod: the tests need only toxiproxy's client package, which imports
// nothing but the standard library.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/Shopify/toxiproxy/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

// proxy is one entry of the config file (the fields toxiproxy reads).
type proxy struct {
	Name     string `json:"name"`
	Listen   string `json:"listen"`
	Upstream string `json:"upstream"`
	Enabled  bool   `json:"enabled"`
}

func main() {
	listen := flag.String("listen", "127.0.0.1:8474", "address of the HTTP API")
	config := flag.String("config", "", "JSON file of the proxies to create at start")
	probe := flag.String("probe", "", "probe the server at this address (every proxy of -config enabled) and exit")
	flag.Parse()
	if *probe != "" {
		if err := doProbe(*probe, *config); err != nil {
			fmt.Fprintln(os.Stderr, "probe:", err)
			os.Exit(1)
		}
		return
	}
	host, port, err := net.SplitHostPort(*listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "toxiproxyd:", err)
		os.Exit(2)
	}
	// docker stop sends SIGTERM; toxiproxy's own main exits on it too.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	go func() { <-sig; os.Exit(0) }()

	level := zerolog.InfoLevel
	if l, err := zerolog.ParseLevel(os.Getenv("LOG_LEVEL")); err == nil && l != zerolog.NoLevel {
		level = l
	}
	logger := zerolog.New(os.Stdout).Level(level).With().Timestamp().Logger()
	server := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(prometheus.NewRegistry()), logger)
	if *config != "" {
		// Logs and goes on when a proxy cannot listen; the probe then
		// reports the service unhealthy.
		server.PopulateConfig(*config)
	}
	server.Listen(host, port) // returns only on failure, after logging it
	os.Exit(1)
}

// doProbe wants the API to answer and every proxy of the config file to
// exist, enabled (listening), on its configured address.
func doProbe(addr, config string) error {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get("http://" + addr + "/proxies")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /proxies: %s", resp.Status)
	}
	have := map[string]proxy{}
	if err := json.NewDecoder(resp.Body).Decode(&have); err != nil {
		return fmt.Errorf("GET /proxies: %w", err)
	}
	if config == "" {
		return nil
	}
	data, err := os.ReadFile(config)
	if err != nil {
		return err
	}
	var want []proxy
	if err := json.Unmarshal(data, &want); err != nil {
		return fmt.Errorf("%s: %w", config, err)
	}
	for _, w := range want {
		h, ok := have[w.Name]
		switch {
		case !ok:
			return fmt.Errorf("proxy %s missing", w.Name)
		case !h.Enabled:
			return fmt.Errorf("proxy %s not enabled (cannot listen on %s?)", w.Name, w.Listen)
		case h.Listen != w.Listen || h.Upstream != w.Upstream:
			return fmt.Errorf("proxy %s is %s -> %s, want %s -> %s", w.Name, h.Listen, h.Upstream, w.Listen, w.Upstream)
		}
	}
	return nil
}
