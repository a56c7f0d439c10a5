// Package mirror copies a remote tree — an FTP or file directory, an HTTP
// index page and what it links to, a gopher menu — into a local
// directory, and keeps it in step on later runs: the engine behind
// `urlget mirror`. A caller hands Run a fetch.Client, the remote URL and
// the local directory:
//
//	var c fetch.Client
//	sum, err := mirror.Run(ctx, &c, "ftp://ftp.example/pub/", "pub", mirror.Options{})
//	if sum != nil {
//		fmt.Println(sum.Got, "fetched,", sum.Unchanged, "up to date")
//	}
//	return err // nil only when all of it was mirrored (*Failed counts what was not)
//
// Options.Events reports each listing, file and deletion as it happens.
//
// A run walks the remote tree (listings in parallel), plans each file
// against the local copy (skip when the size and the modification time
// agree within the listing's precision; fetch otherwise), transfers what
// the plan says with a bounded number of parallel downloads, and, when
// asked, deletes what the remote no longer has — after every transfer has
// ended, and never under a directory whose listing failed.
//
// A mirror too large for one machine can be split: Options.Shard makes
// a run one of N, which walks every listing but fetches and deletes only
// the files whose path hashes to it (see Shard), so N runs on N machines
// — an Indexed Job's pods — make one tree between them.
//
// Where a scheme's directories are pages someone wrote (schemes.Pages:
// HTML index pages), each page is kept too, as DIR/index.html (PageName),
// as wget -m keeps it (lftp keeps none: Options.NoIndexPages): copied as
// its listing is read (no second request), put in place only when the
// listing came whole, and left as it is when its bytes did not change. A real index.html the page lists is
// mirrored as any file instead, so there is one copy; Delete never takes
// a page for a stale file. Gopher menus, FTP and file listings are lists
// a server makes of its entries, not documents, and are not kept.
//
// Everything goes through a fetch.Client, so redirects, credentials,
// retries, limits and the safe writing of files (a work file renamed when
// complete and checked, never written through a symbolic link) are the
// Client's, and the handlers keep their connections for many files (an
// FTP login serves a whole run).
//
// The local tree is only ever touched through an os.Root on the
// destination: no name a listing gives can lead outside it.
package mirror
