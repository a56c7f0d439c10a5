package mirror

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Shard is one share of a mirror split across machines (or processes):
// shard Index of Count. Index counts from 0, as Kubernetes numbers the
// pods of an Indexed Job (JOB_COMPLETION_INDEX runs from 0 to
// JOB_COMPLETIONS-1), so a scheduler's index is the shard as it is.
//
// A shard owns the files whose path relative to the mirror's top
// (slash-separated, as Event.Path gives it) hashes to it: ShardOf, the
// first 8 bytes of the path's SHA-256 read as a big-endian number,
// modulo Count. The hash depends on the path's bytes alone — never on
// Go's per-process map seeds, the run, the machine or the listing's
// order — so a file keeps its shard from run to run and machine to
// machine, and anyone can compute it (`printf %s PATH | sha256sum`).
//
// Each shard lists every directory (a file's owner is only known from
// its path), fetches only its own files, and deletes only its own:
//
//   - Files: a file the remote no longer has is deleted by its owner, and
//     only where the listing of its directory was complete (the rule of
//     an unsplit run, which each shard applies for itself). The guards
//     against a listing that came back empty or shrank judge the whole
//     directory, every shard's files counted, so all shards judge a
//     listing alike. MaxDelete counts one shard's deletions.
//   - Directories: every shard makes the directories the listings name
//     (each needs them for its files; making one that exists changes
//     nothing). A local directory the remote no longer has is not removed
//     whole by any shard: each deletes its own files in it (its own work
//     files too), then tries to remove the directory and those below it,
//     deepest first, each only if it is empty (rmdir: the system refuses
//     to remove a directory that still holds anything, so no shard can
//     take a file another shard has not deleted yet). The last shard to
//     empty a directory removes it, whichever that is, and one round of
//     the shards, at once or one after another, leaves the tree one
//     unsplit run leaves. Nothing is made in such a directory meanwhile:
//     no listing names it.
//   - Events: a skip (excluded, a link not followed, ...) is reported by
//     the shard owning its path alone, though every shard's walk meets
//     it, so the shards' logs and summaries add up to one unsplit run's
//     (failures are each shard's own, and reported by each).
//   - Index pages (schemes.Pages): DIR/index.html is kept by the shard
//     that owns that path.
//
// The shards of one split run into one directory at once, each under its
// own lock file (ShardLockName): two runs of one shard exclude each
// other, and so do a shard and an unsplit run, or shards of different
// counts, whose shares overlap.
type Shard struct {
	Index int // this shard, from 0 to Count-1
	Count int // how many shards the mirror is split into; 0: not split
}

// ParseShard reads a shard written "I/N" (0 <= I < N). Its errors name
// neither the flag nor the text: the caller knows where the text came
// from and says so.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, errors.New("want I/N, shard I of N counted from 0 (0/4 to 3/4)")
	}
	i, err := strconv.Atoi(is)
	if err != nil || strings.HasPrefix(is, "+") {
		return Shard{}, fmt.Errorf("the index %q is not a number", is)
	}
	n, err := strconv.Atoi(ns)
	if err != nil || strings.HasPrefix(ns, "+") {
		return Shard{}, fmt.Errorf("the count %q is not a number", ns)
	}
	sh := Shard{Index: i, Count: n}
	return sh, sh.outOfRange()
}

// check refuses, for Options, a shard that cannot be.
func (s Shard) check() error {
	if err := s.outOfRange(); err != nil {
		return fmt.Errorf("shard %d/%d: %w", s.Index, s.Count, err)
	}
	return nil
}

// outOfRange says why a shard cannot be: a count below 1, an index
// outside 0 to Count-1. The zero Shard (not split) is fine.
func (s Shard) outOfRange() error {
	switch {
	case s == (Shard{}):
		return nil
	case s.Count < 1:
		return errors.New("the count must be 1 or more")
	case s.Index < 0 || s.Index >= s.Count:
		return fmt.Errorf("the index counts from 0 and must be less than the count (0 to %d)", s.Count-1)
	}
	return nil
}

// String is the shard as "I/N", "" when the mirror is not split.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Owns says whether the file or directory at rel (relative to the top,
// slash-separated) is this shard's. Everything is when the mirror is
// not split.
func (s Shard) Owns(rel string) bool {
	return s.Count <= 1 || ShardOf(rel, s.Count) == s.Index
}

// ShardOf is the shard, of n, that owns the path rel: the first 8 bytes
// of SHA-256(rel) as a big-endian number, modulo n. SHA-256 rather than
// a quicker hash because anyone can compute it with the tools at hand,
// and its low bits are as evenly spread as its high ones (modulo a small
// n takes the low bits); one hash a file is nothing beside fetching it.
func ShardOf(rel string, n int) int {
	if n <= 1 {
		return 0
	}
	sum := sha256.Sum256([]byte(rel))
	return int(binary.BigEndian.Uint64(sum[:8]) % uint64(n))
}

// ShardLockName is the lock file of shard s in the destination's top:
// LockName when the mirror is not split (or split in one: 0/1 is the
// whole mirror, and excludes an unsplit run), LockName.I-of-N for a
// shard, so that the shards of one mirror run into one directory at
// once while two runs of one shard still exclude each other.
func ShardLockName(s Shard) string {
	if s.Count <= 1 {
		return LockName
	}
	return fmt.Sprintf("%s.%d-of-%d", LockName, s.Index, s.Count)
}
