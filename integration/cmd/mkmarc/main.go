// Command mkmarc writes the Zebra catalogue of the integration test bed:
// one file of ISO 2709 MARC 21 records per database (testbed.ZebraRecord),
// which the zebra service indexes when it starts.
//
// Usage:
//
//	go run ./integration/cmd/mkmarc [-o integration/.run/zebra]
package main

import (
	"bytes"
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/urlget/urlget/integration/testbed"
)

func main() {
	out := flag.String("o", filepath.Join("integration", ".run", "zebra"), "target directory")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mkmarc: ")
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	files := map[string]*bytes.Buffer{}
	for n := 1; n <= testbed.ZebraRecords(); n++ {
		db := testbed.ZebraDatabaseOf(n)
		if files[db] == nil {
			files[db] = &bytes.Buffer{}
		}
		files[db].Write(testbed.ZebraRecord(n).ISO2709())
	}
	for _, db := range testbed.ZebraDatabases {
		// Written whole then renamed: a zebra starting meanwhile reads the
		// old file or the new one, never half of one.
		p := filepath.Join(*out, testbed.ZebraFile(db))
		if err := os.WriteFile(p+".tmp", files[db].Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.Rename(p+".tmp", p); err != nil {
			log.Fatal(err)
		}
	}
	log.Printf("wrote %d records into %s", testbed.ZebraRecords(), *out)
}
