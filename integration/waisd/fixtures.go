package waisd

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// FixturesDatabase is the database of the test bed's fixture tree
// (Server.Fixtures), as `waisindex -nocontents` would build it: one
// document per file, its headline the file's name, a search matching seed
// words against the file's path under the tree (not the contents,
// which include a 64 MiB binary). It lets the conformance suite fetch the
// same files from WAIS as from every other server.
const FixturesDatabase = "fixtures"

// fixturesIndex is the database field of the fixtures' DocIDs.
func (s *Server) fixturesIndex() string { return path.Join(s.Corpus, "index", FixturesDatabase) }

// FixtureType is the WAIS type the server gives the fixture at rel.
func FixtureType(rel string) string {
	switch path.Ext(rel) {
	case ".txt":
		return "TEXT"
	case ".html":
		return "HTML"
	case ".gif":
		return "GIF"
	}
	return "BINARY"
}

// fixtureFiles walks the fixture tree: its regular files by path under
// the root, in path order, with their sizes.
func (s *Server) fixtureFiles() ([]Document, error) {
	var docs []Document
	err := filepath.WalkDir(s.Fixtures, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(s.Fixtures, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		docs = append(docs, Document{File: rel, End: int(info.Size()), Type: FixtureType(rel), Headline: path.Base(rel)})
		return nil
	})
	slices.SortFunc(docs, func(a, b Document) int { return strings.Compare(a.File, b.File) })
	return docs, err
}

// fixturesReply answers a search of the fixtures: the empty seed gives the
// WSRC and catalog, seed words the files whose paths hold them.
func (cn *conn) fixturesReply(seed string, max int, refID []byte) []byte {
	docs, err := cn.s.fixtureFiles()
	if err != nil {
		cn.s.logf("fixtures: %v", err)
	}
	index := cn.s.fixturesIndex()
	words := strings.Fields(strings.ToLower(seed))
	var hits []hit
	for _, d := range docs {
		score := 0
		for _, w := range words {
			score += 100 * strings.Count(strings.ToLower(d.File), w)
		}
		if score > 0 {
			hits = append(hits, hit{d, score, index, path.Join(cn.s.Fixtures, d.File)})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return b.score - a.score })
	if len(hits) > max {
		hits = hits[:max]
	}
	if len(hits) == 0 {
		groups := []*bytes.Buffer{cn.specialHeader(index, "catalog", "TEXT", "Catalog for database: "+FixturesDatabase, fixturesCatalog(docs))}
		if len(words) == 0 {
			groups = append([]*bytes.Buffer{cn.specialHeader(index, "source", "WSRC", FixturesDatabase+".src", fixturesSource)}, groups...)
		}
		return cn.headersReply(groups, refID)
	}
	return cn.hitsReply(hits, refID)
}

// fixturesSource is the fixtures database's WSRC description.
var fixturesSource = []byte("(:source\n   :version  3\n   :database-name \"fixtures\"\n" +
	"   :description \"The test bed's fixture tree, by file name.\"\n)\n")

// fixturesCatalog lists the fixtures' headlines.
func fixturesCatalog(docs []Document) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Catalog for database: %s\n", FixturesDatabase)
	for _, d := range docs {
		fmt.Fprintf(&b, "Headline: %s\n", d.Headline)
	}
	return b.Bytes()
}

// fixture opens the fixture a DocID's local id names ("0 size file", file
// under the tree, size its size now), or its source and catalog
// documents: a reader of its bytes, what to call when done, its size.
func (s *Server) fixture(local string) (io.ReaderAt, func(), int, bool) {
	switch local {
	case "source":
		return bytes.NewReader(fixturesSource), func() {}, len(fixturesSource), true
	case "catalog":
		docs, err := s.fixtureFiles()
		if err != nil {
			return nil, nil, 0, false
		}
		b := fixturesCatalog(docs)
		return bytes.NewReader(b), func() {}, len(b), true
	}
	parts := strings.SplitN(local, " ", 3)
	if len(parts) != 3 || parts[0] != "0" {
		return nil, nil, 0, false
	}
	rel, ok := strings.CutPrefix(parts[2], s.Fixtures+"/")
	if !ok {
		return nil, nil, 0, false
	}
	f, err := os.OpenInRoot(s.Fixtures, rel)
	if err != nil {
		return nil, nil, 0, false
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || fmt.Sprint(info.Size()) != parts[1] {
		f.Close()
		return nil, nil, 0, false
	}
	return f, func() { f.Close() }, int(info.Size()), true
}
