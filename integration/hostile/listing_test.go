//go:build integration

package hostile_test

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/urlget/urlget/fetch"
	"github.com/urlget/urlget/integration/hostile"
)

// TestFTPListingMillionFlat: an FTP listing of 1,000,000 entries, generated
// by the server as it sends it, is streamed through fetch.Client.List in
// flat memory: every entry comes, in order, and the heap in use (sampled
// after a collection every 100,000 entries) grows by less than 4 MiB from
// the first sample to the largest. Held as entries, the listing would take
// hundreds of MiB.
func TestFTPListingMillionFlat(t *testing.T) {
	const entries, every = 1_000_000, 100_000
	s := start(t, hostile.FTPWideListing(entries))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var c fetch.Client
	defer c.CloseIdleConnections()
	resp, err := c.List(ctx, "ftp://"+s.HostPort()+"/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	if resp.Listing == nil {
		t.Fatal("no listing")
	}
	var samples []uint64 // HeapInuse, KiB
	n := 0
	for {
		e, err := resp.Listing.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d entries: %v", n, err)
		}
		if want := fmt.Sprintf("f%07d", n); e.Name != want || e.Size != 1234 {
			t.Fatalf("entry %d: %q of %d bytes, want %q of 1234", n, e.Name, e.Size, want)
		}
		if n++; n%every == 0 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			samples = append(samples, ms.HeapInuse>>10)
		}
	}
	if err := resp.Close(); err != nil {
		t.Fatalf("the listing's end: %v", err)
	}
	t.Logf("HeapInuse every %d entries (KiB): %v", every, samples)
	if n != entries {
		t.Fatalf("%d entries, want %d", n, entries)
	}
	grew := uint64(0)
	for _, s := range samples {
		grew = max(grew, s-min(s, samples[0]))
	}
	if grew >= 4<<10 {
		t.Errorf("the heap in use grew by %d KiB over the listing, want < 4 MiB", grew)
	}
}
