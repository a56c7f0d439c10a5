package waisd

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixturesDatabase: the fixtures database retrieves a file by the
// DocID of its path and size, in ranges; a DocID naming a file outside the
// tree, or with a size the file does not have, is a bad DocID.
func TestFixturesDatabase(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "names"), 0o755)
	content := bytes.Repeat([]byte("0123456789"), 2500) // 25,000 bytes
	os.WriteFile(filepath.Join(root, "names", "a b;c.bin"), content, 0o644)
	os.WriteFile(filepath.Join(root, "..", "outside.txt"), []byte("secret\n"), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Corpus: "/srv/wais", Fixtures: root, Name: "vm:2210"}
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	index := "/srv/wais/index/" + FixturesDatabase
	id := DocID("vm:2210", index, root+"/names/a b;c.bin", 0, len(content))
	r := exchange(t, ln.Addr().String(),
		retrieval(FixturesDatabase, id, "10000", "20000"),
		retrieval(FixturesDatabase, id, "20000", "30000"),
		retrieval(FixturesDatabase, DocID("vm:2210", index, root+"/../outside.txt", 0, 7), "0", "10000"),
		retrieval(FixturesDatabase, DocID("vm:2210", index, root+"/names/a b;c.bin", 0, 3), "0", "10000"))
	if len(r) != 4 {
		t.Fatalf("%d replies", len(r))
	}
	if !bytes.Contains(r[0], content[10000:20000]) || bytes.Contains(r[0], []byte("SF")) {
		t.Errorf("middle range: %d bytes", len(r[0]))
	}
	if !bytes.HasSuffix(r[1], []byte("SFRequest out of range\x01\x1d")) || !bytes.Contains(r[1], content[20000:]) {
		t.Errorf("last range: %q", r[1][len(r[1])-40:])
	}
	for i, rp := range r[2:] {
		if !bytes.Contains(rp, []byte("SFBad DocID in request")) || bytes.Contains(rp, []byte("secret")) {
			t.Errorf("bad DocID %d: %q", i, rp)
		}
	}
	// A search for a path word finds the file by its name; its URL names
	// the DocID record by record.
	docs, err := s.fixtureFiles()
	if err != nil || len(docs) != 1 || docs[0].Headline != "a b;c.bin" || docs[0].End != len(content) {
		t.Fatalf("fixtures %+v, %v", docs, err)
	}
	u := DocURL("127.0.0.1:2210", FixturesDatabase, FixtureType("names/a b;c.bin"), len(content), id)
	if want := "wais://127.0.0.1:2210/fixtures/BINARY/25000/1=vm%3A2210;2=/srv/wais/index/fixtures;3=0%2025000%20"; !strings.HasPrefix(u, want) ||
		!strings.Contains(u, "/names/a%20b%3Bc.bin;4=") || !strings.HasSuffix(u, ";7=%00;") {
		t.Errorf("DocURL = %s", u)
	}
}
