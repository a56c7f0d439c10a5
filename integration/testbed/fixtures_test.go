package testbed

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

type countingHash struct {
	n   int64
	sum interface {
		Write([]byte) (int, error)
		Sum([]byte) []byte
	}
}

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.sum.Write(p)
}

func TestBigFileSHA256(t *testing.T) {
	h := &countingHash{sum: sha256.New()}
	if err := WriteBigFile(h); err != nil {
		t.Fatal(err)
	}
	if h.n != BigFileSize {
		t.Fatalf("size %d, want %d", h.n, BigFileSize)
	}
	if got := hex.EncodeToString(h.sum.Sum(nil)); got != BigFileSHA256 {
		t.Fatalf("sha256 %s, want %s", got, BigFileSHA256)
	}
}
