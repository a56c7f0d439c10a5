package fetch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWorkFileWithoutRecordStartsOver: a NAME.part as long as the
// resource with no resume record — what a copy made in segments becomes
// when a tool that drops extended attributes copies it: full length from
// its start, gaps of zeros included — is not continued (which would find
// nothing left to fetch and rename the gaps to NAME) but started over.
func TestWorkFileWithoutRecordStartsOver(t *testing.T) {
	data := bytes.Repeat([]byte("urlget "), 10000)
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "f", mod, bytes.NewReader(data))
	}))
	defer srv.Close()
	dest := filepath.Join(t.TempDir(), "f")
	gaps := make([]byte, len(data))
	copy(gaps, data[:1000]) // one range arrived; the rest is the preallocated zeros
	if err := os.WriteFile(dest+PartSuffix, gaps, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(dest+PartSuffix, mod.Add(time.Hour), mod.Add(time.Hour)) // not older than the remote
	c := &Client{Registry: DefaultRegistry()}
	res, err := c.Download(context.Background(), srv.URL+"/f", dest, DownloadOptions{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(dest)
	if !bytes.Equal(got, data) || res.Offset != 0 || res.Bytes != int64(len(data)) {
		t.Fatalf("NAME holds %d bytes (equal: %v), offset %d, %d received: want the whole resource fetched again",
			len(got), bytes.Equal(got, data), res.Offset, res.Bytes)
	}
}
