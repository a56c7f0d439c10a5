package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/urlget/urlget/mirror"
)

// mirrorFlags are `urlget mirror`'s own flags; the connection flags
// (-u, -k, --cacert, timeouts, --retry, --limit-rate, --proto, -v, -s,
// --json, ...) are the retrieval's.
type mirrorFlags struct {
	parallel       int
	delete         bool
	maxDelete      int
	dryRun         bool
	include        []string
	exclude        []string
	maxDepth       int
	maxListings    int
	maxEntries     int
	cont           bool
	followSymlinks bool
	noIndexPages   bool
	maxDeleteSet   bool
	shardText      string       // --shard as given
	shard          mirror.Shard // --shard as read (from the environment for "k8s")
}

func (m *mirrorFlags) add(fs *pflag.FlagSet) {
	fs.IntVarP(&m.parallel, "parallel", "P", 4, "mirror: run `N` listings and transfers at once (connections to the server)")
	fs.BoolVar(&m.delete, "delete", false, "mirror: remove local files the remote no longer has (never where a listing failed)")
	fs.IntVar(&m.maxDelete, "max-delete", 0, "mirror: delete nothing, and fail, when more than `N` deletions are planned")
	fs.StringArrayVar(&m.include, "include", nil, "mirror: only mirror files matching `GLOB` (relative path, or last segment when it has no /); repeat")
	fs.StringArrayVar(&m.exclude, "exclude", nil, "mirror: skip files and directories matching `GLOB`; repeat")
	fs.IntVar(&m.maxDepth, "max-depth", 0, "mirror: walk at most `N` levels below the top, or for http and gopher N links from the start (default: no limit for ftp and file, 10 for http and gopher)")
	fs.IntVar(&m.maxListings, "max-listings", 0, "mirror: stop the walk after `N` listings and fail (default: 10000 for http and gopher, no limit for ftp and file; -1: none)")
	fs.IntVar(&m.maxEntries, "max-entries", 0, "mirror: abandon a listing of more than `N` entries and fail (default 1000000; -1: none)")
	fs.BoolVar(&m.cont, "continue", true, "mirror: continue partial files of an earlier run (--continue=false starts them over)")
	fs.BoolVar(&m.followSymlinks, "follow-symlinks", false, "mirror: follow remote symbolic links that stay inside the tree")
	fs.StringVar(&m.shardText, "shard", "", "mirror: be shard `I/N` of a mirror split across machines: list everything, fetch and delete only the files whose path hashes to I (0 to N-1); 'k8s' reads I from JOB_COMPLETION_INDEX and N from JOB_COMPLETIONS")
	fs.BoolVar(&m.noIndexPages, "no-index-pages", false, "mirror: keep no index page (by default each http directory's page is kept as DIR/index.html, as wget -m does)")
}

// retrievalOnly are flags of a retrieval that mean nothing to a mirror.
// --fail-with-body too: a mirror never writes a server's error page as
// a file; nor -w (one transfer's variables), -D (one transfer's heads)
// and -# (a mirror draws its own board of transfers).
var retrievalOnly = []string{"output", "remote-name", "output-dir", "continue-at", "input-file", "explain", "long",
	"remote-header-name", "create-dirs", "fail-with-body", "write-out", "dump-header", "progress-bar", "range", "time-cond"}

// refuseRetrievalOnly fails on the first flag of retrievalOnly given to
// the subcommand sub.
func refuseRetrievalOnly(fs *pflag.FlagSet, sub string) error {
	for _, name := range retrievalOnly {
		if fs.Changed(name) {
			return fmt.Errorf("--%s is not a %s flag (see urlget %s --help)", name, sub, sub)
		}
	}
	return nil
}

// check takes the two arguments and refuses flags a mirror cannot use.
func (m *mirrorFlags) check(fs *pflag.FlagSet, o *options) error {
	if err := refuseRetrievalOnly(fs, "mirror"); err != nil {
		return err
	}
	if err := o.schemes.refuseSubmits("a mirror", "a request body or method goes only to the URLs named on a retrieval's command line, never to the links a mirror finds"); err != nil {
		return err
	}
	if len(o.urls) != 2 {
		return errors.New("mirror: want a URL and a local directory: urlget mirror [flags] URL DIR")
	}
	if m.parallel < 1 {
		return fmt.Errorf("--parallel %d: want 1 or more", m.parallel)
	}
	m.maxDeleteSet = fs.Changed("max-delete")
	// --dry-run is mailto's flag too: one flag, read by both.
	m.dryRun, _ = fs.GetBool("dry-run")
	if m.maxDeleteSet && !m.delete {
		return errors.New("--max-delete needs --delete")
	}
	if fs.Changed("shard") {
		sh, err := readShard(m.shardText, os.LookupEnv)
		if err != nil {
			return err
		}
		m.shard = sh
	}
	return nil
}

// The variables --shard k8s reads: Kubernetes sets the first in each pod
// of an Indexed Job (0 to spec.completions-1); the second is the Job's
// spec.completions, which the pod template must set itself (Kubernetes
// does not: see deploy/mirror-indexed-job.yaml).
const (
	envShardIndex = "JOB_COMPLETION_INDEX"
	envShardCount = "JOB_COMPLETIONS"
)

// readShard reads --shard's value: I/N, or "k8s" for I and N from the
// environment (lookup). Its errors name the flag, and the variables
// when they were read.
func readShard(text string, lookup func(string) (string, bool)) (mirror.Shard, error) {
	if text != "k8s" {
		sh, err := mirror.ParseShard(text)
		if err != nil {
			return sh, fmt.Errorf("--shard %s: %v", text, err)
		}
		return sh, nil
	}
	i, ok := lookup(envShardIndex)
	if !ok {
		return mirror.Shard{}, fmt.Errorf("--shard k8s: %s is not set (Kubernetes sets it in the pods of an Indexed Job)", envShardIndex)
	}
	n, ok := lookup(envShardCount)
	if !ok {
		return mirror.Shard{}, fmt.Errorf("--shard k8s: %s is not set (Kubernetes does not set it: give it the Job's spec.completions in the pod template)", envShardCount)
	}
	sh, err := mirror.ParseShard(i + "/" + n)
	if err != nil {
		return sh, fmt.Errorf("--shard k8s (%s=%q, %s=%q): %v", envShardIndex, i, envShardCount, n, err)
	}
	return sh, nil
}

func (m *mirrorFlags) options() mirror.Options {
	return mirror.Options{Parallel: m.parallel, Delete: m.delete, MaxDelete: m.maxDelete, MaxDeleteSet: m.maxDeleteSet,
		DryRun: m.dryRun, Include: m.include, Exclude: m.exclude, MaxDepth: m.maxDepth, Restart: !m.cont,
		MaxListings: m.maxListings, MaxEntries: m.maxEntries,
		FollowSymlinks: m.followSymlinks, NoIndexPages: m.noIndexPages, Shard: m.shard}
}

// runMirror is `urlget mirror [flags] URL DIR`.
func runMirror(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	m := &mirrorFlags{}
	o, err := parseFlagsFor(args, stdin, stderr, m)
	if err != nil {
		mirror, _ := commandNamed("mirror")
		return flagsFailed(err, mirror, args, stdout, stderr)
	}
	con := newConsole(stderr, !o.silent && !o.verbose && !m.dryRun && isTerminal(stderr))
	o.con = con
	client, err := o.client(stdin, con)
	if err != nil {
		con.say(redactedText(err))
		return exitCode(err)
	}
	defer client.CloseIdleConnections()
	keepIdle(client, m.parallel)
	r := &mirrorOutput{o: o, m: m, con: con, stdout: stdout, enc: json.NewEncoder(stdout), ctx: ctx}
	opt := m.options()
	opt.Events = r.event
	var stop func()
	if con.draw {
		r.board = newMirrorBoard(time.Now())
		opt.Progress = r.board.progress
		opt.Planned = r.board.planned
		stop = con.show(r.board)
	}
	sum, err := mirror.Run(ctx, client, o.urls[0], o.urls[1], opt)
	if stop != nil {
		r.board.finish()
		stop()
	}
	in := interruptedBy(ctx)
	r.interrupted = in != nil
	r.finish(sum, err)
	if in != nil {
		return in.exitCode()
	}
	if err != nil {
		return exitCode(err)
	}
	return 0
}

// mirrorOutput renders a mirror's events: JSON objects (--json), the
// changes a dry run would make (--dry-run) or every event (-v) on
// stdout, failures on stderr, an overall progress line on a terminal,
// and a summary at the end.
type mirrorOutput struct {
	o      *options
	m      *mirrorFlags
	con    *console
	stdout io.Writer
	enc    *json.Encoder
	board  *mirrorBoard // nil: no progress drawn
	// ctx is the run's; interrupted says Ctrl-C ended it.
	ctx         context.Context
	interrupted bool
}

// event is mirror.Options.Events; calls never overlap.
func (r *mirrorOutput) event(ev mirror.Event) {
	ev = withFlags(ev)
	switch {
	case r.o.json:
		if ev.Err != nil {
			ev.Err = worded{ev.Err}
		}
		r.enc.Encode(ev)
	case ev.Type == mirror.EventError:
		if !r.o.silent || r.o.showError {
			line := eventLine(ev)
			if interruptedBy(r.ctx) != nil {
				line = fmt.Sprintf("mirror: %s: %s", pathOrTop(ev.Path), interruptedMessage(ev.Err))
			}
			r.con.say(line)
		}
	case r.o.verbose || r.m.dryRun && changes(ev):
		fmt.Fprintln(r.stdout, forPeople(eventLine(ev)))
	}
	if r.board != nil {
		r.board.event(ev)
	}
}

// changes says whether ev is a change a dry run prints without -v: a
// file it would fetch or delete. What it would leave alone (unchanged,
// excluded, not followed: skips) is only counted in the summary, and
// what it would fail on, deletions the guards hold back included, is
// said on stderr as in a real run; -v lists every event.
func changes(ev mirror.Event) bool {
	return ev.Type == mirror.EventGet || ev.Type == mirror.EventDelete
}

// eventLine is one event for people: "get a/b (new)", and in a dry run
// "would fetch a/b (new)", "would delete c (not on the remote)".
func eventLine(ev mirror.Event) string {
	verb, width := string(ev.Type), 6
	if ev.DryRun {
		width = 12 // the plan's lines line up too
		switch ev.Type {
		case mirror.EventGet:
			verb = "would fetch"
		case mirror.EventDelete:
			verb = "would delete"
		}
	}
	line := fmt.Sprintf("%-*s %s", width, verb, pathOrTop(ev.Path))
	switch {
	case ev.Err != nil:
		line = fmt.Sprintf("mirror: %s: %s", pathOrTop(ev.Path), redactedText(ev.Err))
	case ev.Reason != "":
		line += " (" + ev.Reason + ")"
	}
	return line
}

func pathOrTop(p string) string {
	if p == "" {
		return "./"
	}
	return p
}

// boundFlags are the flags that set the walk's bounds, named in the
// summary of a run that reached one.
var boundFlags = map[string]string{
	mirror.BoundDepth: "--max-depth", mirror.BoundListings: "--max-listings", mirror.BoundEntries: "--max-entries",
}

// finish ends the progress line and writes the summary: a JSON object
// with --json, else one line on stderr.
func (r *mirrorOutput) finish(sum *mirror.Summary, err error) {
	if sum == nil {
		if err != nil && (!r.o.silent || r.o.showError) {
			r.con.say(redactedText(err))
		}
		return
	}
	if r.o.json {
		r.enc.Encode(sum)
		return
	}
	if r.o.silent && err == nil {
		return
	}
	verb, fetched, deleted := "mirrored", "%d fetched", "%d deleted"
	switch {
	case sum.DryRun:
		verb, fetched, deleted = "dry run", "would fetch %d", "would delete %d"
	case r.interrupted:
		verb = "interrupted"
	}
	others := ""
	if sum.Shard != "" {
		verb += " (shard " + sum.Shard + ")"
		others = fmt.Sprintf(", %d left to the other shards", sum.Others)
	}
	line := fmt.Sprintf("%s: "+fetched+" (%s), %d unchanged, %d skipped%s, "+deleted+", %d directories listed, %d failed, in %s",
		verb, sum.Got, formatBytes(sum.Bytes), sum.Unchanged, sum.Skipped, others, sum.Deleted, sum.Listed, sum.Errors,
		formatSeconds(sum.Duration))
	if sum.DryRun && !r.o.verbose && sum.Unchanged+sum.Skipped > 0 {
		line += "; -v lists the unchanged and skipped"
	}
	if sum.NoDelete != "" {
		line += "; " + sum.NoDelete + flagHint(mirror.SettingMaxDelete)
	}
	for _, b := range sum.Bounds {
		line += "; stopped at a bound, " + b.String()
		if f := boundFlags[b.Name]; f != "" {
			line += " (" + f + ")"
		}
	}
	if r.interrupted {
		line += "; run the same command again to continue"
	}
	if !r.o.silent || r.o.showError {
		r.con.say(line)
	}
}
