package schemestest

import (
	"slices"
	"strings"
)

// SentTogether says whether a -v trace (lines "> " sent, "< " received)
// shows the commands sent, in order, written before any reply that came
// after the first of them: pipelined, rather than each sent after the
// reply to the one before. A command is matched by its line's beginning.
func SentTogether(trace string, sent ...string) bool {
	lines := strings.Split(trace, "\n")
	first := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "> "+sent[0]) })
	if first < 0 {
		return false
	}
	for _, l := range lines[first:] {
		switch {
		case strings.HasPrefix(l, "< "):
			return len(sent) == 0
		case len(sent) > 0 && strings.HasPrefix(l, "> "+sent[0]):
			sent = sent[1:]
		}
	}
	return len(sent) == 0
}

// RoundTrips counts the waits in a -v trace: runs of sent lines each
// followed by a reply; QUIT, which is not waited for, aside.
func RoundTrips(trace string) int {
	n, sent := 0, false
	for _, l := range strings.Split(trace, "\n") {
		switch {
		case strings.HasPrefix(l, "> QUIT"):
			sent = false
		case strings.HasPrefix(l, "> "):
			sent = true
		case strings.HasPrefix(l, "< ") && sent:
			n, sent = n+1, false
		}
	}
	return n
}
