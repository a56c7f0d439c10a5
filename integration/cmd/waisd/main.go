// Command waisd runs the in-repo WAIS test server (package
// integration/waisd) for the container test bed, or probes one:
//
//	waisd -listen 127.0.0.1:2210 -corpus DIR [-write-corpus] [-fixtures DIR]
//	waisd -probe 127.0.0.1:2210   (health check: exit 0 when a search is answered)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"time"

	"github.com/urlget/urlget/integration/waisd"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:2210", "address to listen on (also the server name in DocIDs)")
	corpus := flag.String("corpus", "/srv/wais", "directory of the corpus")
	write := flag.Bool("write-corpus", false, "write the fixture corpus into -corpus first")
	fixtures := flag.String("fixtures", "", "serve this fixture tree as the database \"fixtures\"")
	probe := flag.String("probe", "", "probe the server at this address and exit")
	flag.Parse()
	if *probe != "" {
		if err := doProbe(*probe); err != nil {
			fmt.Fprintln(os.Stderr, "probe:", err)
			os.Exit(1)
		}
		return
	}
	if *write {
		if err := waisd.WriteCorpus(*corpus); err != nil {
			log.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	s := &waisd.Server{Corpus: *corpus, Fixtures: *fixtures, Name: *listen, Log: log.New(os.Stderr, "waisd: ", log.LstdFlags)}
	log.Printf("waisd serving %q on %s", *corpus, *listen)
	log.Fatal(s.Serve(ln))
}

// doProbe sends an empty-seed search of demo (waisd.ProbeSearch) and
// wants a reply of a non-zero length.
func doProbe(addr string) error {
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, waisd.ProbeSearch); err != nil {
		return err
	}
	hdr := make([]byte, 25)
	if _, err := io.ReadFull(bufio.NewReader(c), hdr); err != nil {
		return err
	}
	if string(hdr[:10]) == "0000000000" {
		return fmt.Errorf("empty reply %q", hdr)
	}
	return nil
}
