//go:build !unix

package mirror

// noFollow is 0 where there is no O_NOFOLLOW; os.Root still keeps the
// open inside the destination.
const noFollow = 0
