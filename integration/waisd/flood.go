package waisd

import "bytes"

// FloodDatabase is a hostile database: every search of it is answered
// with FloodHits hits, whatever MaxDocumentsRetrieved asked for and
// however far past the reply buffer that goes — what a server that trims
// to neither sends. Each hit is a minimal header group (a DocID of one
// record numbering it, modulo 65536), so that the reply stays within the
// 1 MiB a client may accept.
const FloodDatabase = "hostile-flood"

// FloodHits is how many hits a search of FloodDatabase gets: about as
// many 9-byte header groups as fit in 1 MiB.
const FloodHits = 116000

// floodReply is the reply to a search of FloodDatabase.
func floodReply(refID []byte) []byte {
	var ext bytes.Buffer
	for i := range FloodHits {
		var id, g bytes.Buffer
		putString(&id, 3, []byte{byte(i >> 8), byte(i)})
		putString(&g, 116, id.Bytes())
		putGroup(&ext, 150, &g)
	}
	return append(responseHead(1, FloodHits, refID), wrapExt(&ext)...)
}
