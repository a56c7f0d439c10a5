package waisd

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Separator ends each document of a multi-document file: a line of one
// form feed. The indexer gives each document its own DocID, whose local
// id carries its offsets in the file (wais-notes §5).
const Separator = "\f\n"

// MultiFile is the corpus file holding several documents.
const MultiFile = "digest.txt"

// pixelGIF is a 1×1 GIF89a.
var pixelGIF, _ = base64.StdEncoding.DecodeString("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==")

// orchard is the 107-byte document of the captures (wais-notes §9).
const orchard = "Orchard management\nPrune the apple trees in late winter; thin the fruit in early summer for larger apples.\n"

// corpusFiles are the files WriteCorpus writes, by name, built once (the
// server looks documents up on every request).
var corpusFiles = sync.OnceValue(buildCorpus)

func buildCorpus() map[string][]byte {
	var big strings.Builder
	for i := 0; big.Len() <= 150_000; i++ {
		fmt.Fprintf(&big, "Line %05d of the leviathan chronicle: the whale surfaced, and the crew counted the waves.\n", i)
	}
	digest := "Gardening digest, part one\nCompost turns kitchen scraps into soil; keep it damp.\n" + Separator +
		"Gardening digest, part two\nBees visit the apple blossom in spring.\n" + Separator +
		"Gardening digest, part three\nMulch keeps the beds moist through the summer.\n"
	return map[string][]byte{
		"orchard.txt":        []byte(orchard),
		"river.txt":          []byte("River notes\nThe heron waits by the weir at dawn.\n"),
		MultiFile:            []byte(digest),
		"chronicle.txt":      []byte("The leviathan chronicle\n" + big.String()),
		"notes; 50% off.txt": []byte("Sale notes\nEverything in the shed is half price: rakes, hoes and twine.\n"),
		"page.html":          []byte("<html><head><title>Orchard page</title></head><body><p>apple cider recipes</p></body></html>\n"),
		"pixel.gif":          pixelGIF,
	}
}

// WriteCorpus writes the fixture corpus into dir: small texts (one of
// them the captures' 107-byte orchard.txt), a multi-document file, a
// document over 150 KB, a name with a space, ";" and "%", an HTML page
// and a GIF. Their contents are fixed.
func WriteCorpus(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, b := range corpusFiles() {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Document is one document of the corpus as the server indexes it.
type Document struct {
	File     string // the corpus file's name
	Start    int    // offsets of the document in File
	End      int
	Type     string // WAIS type: TEXT, HTML, GIF
	Headline string
	Text     []byte
}

// Documents returns the corpus's documents, each sub-document of
// MultiFile on its own, in file-name order. Callers must not modify them.
var Documents = sync.OnceValue(documents)

func documents() []Document {
	files := corpusFiles()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	var docs []Document
	for _, n := range names {
		docs = append(docs, split(n, files[n])...)
	}
	return docs
}

// split cuts a file into its documents.
func split(name string, b []byte) []Document {
	typ := "TEXT"
	switch filepath.Ext(name) {
	case ".html":
		typ = "HTML"
	case ".gif":
		typ = "GIF"
	}
	if name != MultiFile {
		return []Document{{File: name, Start: 0, End: len(b), Type: typ, Headline: headline(name, typ, b), Text: b}}
	}
	var docs []Document
	start := 0
	for start < len(b) {
		end := len(b)
		next := len(b)
		if i := bytes.Index(b[start:], []byte(Separator)); i >= 0 {
			end, next = start+i, start+i+len(Separator)
		}
		docs = append(docs, Document{File: name, Start: start, End: end, Type: typ, Headline: headline(name, typ, b[start:end]), Text: b[start:end]})
		start = next
	}
	return docs
}

// headline is a document's first line, an HTML page's title, a GIF's
// file name.
func headline(name, typ string, b []byte) string {
	switch typ {
	case "GIF":
		return name
	case "HTML":
		s := string(b)
		if i, j := strings.Index(s, "<title>"), strings.Index(s, "</title>"); i >= 0 && j > i {
			return s[i+7 : j]
		}
		return name
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return line
}
