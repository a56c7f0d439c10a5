package telnet

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
)

// recorder collects what a decoder finds.
type recorder struct {
	out bytes.Buffer
	ev  []string
}

func (r *recorder) data(p []byte) { r.out.Write(p) }
func (r *recorder) negotiate(cmd, opt byte) {
	r.ev = append(r.ev, fmt.Sprintf("%s %d", commandName(cmd), opt))
}
func (r *recorder) subnegotiate(opt byte, p []byte) {
	r.ev = append(r.ev, fmt.Sprintf("SB %d %q", opt, p))
}
func (r *recorder) command(cmd byte) { r.ev = append(r.ev, commandName(cmd)) }

func TestDecoderSplitsAnywhere(t *testing.T) {
	stream := []byte("ab\xff\xffc\xff\xfb\x01d\xff\xfa\x18\x01\xff\xf0e\xff\xfa\x1f\xff\xff\x00\xff\xf0\xff\xf9f")
	wantOut := "ab\xffcdef"
	wantEv := []string{"WILL 1", `SB 24 "\x01"`, `SB 31 "\xff\x00"`, "GA"}
	// Every way of cutting the stream in two gives the same result.
	for cut := 0; cut <= len(stream); cut++ {
		var d decoder
		var r recorder
		d.feed(stream[:cut], &r)
		d.feed(stream[cut:], &r)
		if r.out.String() != wantOut || fmt.Sprint(r.ev) != fmt.Sprint(wantEv) {
			t.Fatalf("cut %d: out %q events %q; want %q %q", cut, r.out.String(), r.ev, wantOut, wantEv)
		}
	}
	// Byte by byte.
	var d decoder
	var r recorder
	for _, c := range stream {
		d.feed([]byte{c}, &r)
	}
	if r.out.String() != wantOut || fmt.Sprint(r.ev) != fmt.Sprint(wantEv) {
		t.Fatalf("bytewise: out %q events %q", r.out.String(), r.ev)
	}
}

func TestDecoderDropsOversizedSubnegotiation(t *testing.T) {
	var d decoder
	var r recorder
	d.feed(append(append([]byte{cmdIAC, cmdSB, optTTYPE}, bytes.Repeat([]byte{'x'}, 5000)...), cmdIAC, cmdSE, 'z'), &r)
	if len(r.ev) != 0 || r.out.String() != "z" {
		t.Fatalf("events %q out %q; want the subnegotiation dropped", r.ev, r.out.String())
	}
}

func TestEscapeIAC(t *testing.T) {
	if got := escapeIAC(nil, []byte("a\xffb\xff")); string(got) != "a\xff\xffb\xff\xff" {
		t.Fatalf("escapeIAC = %q", got)
	}
}

// newTestNegotiator records what it sends.
func newTestNegotiator(sent *[]string, allow bool) *negotiator {
	n := &negotiator{send: func(cmd, opt byte) { *sent = append(*sent, fmt.Sprintf("%s %d", commandName(cmd), opt)) }}
	if allow {
		n.allowUs = func(byte) bool { return true }
		n.allowHim = func(byte) bool { return true }
	}
	return n
}

func TestQMethodTable(t *testing.T) {
	tests := []struct {
		name  string
		steps func(n *negotiator)
		sent  []string
		us    bool // final state of option 1 on our side
		him   bool
	}{
		{"accept WILL once", func(n *negotiator) { n.receive(cmdWILL, 1); n.receive(cmdWILL, 1) }, []string{"DO 1"}, false, true},
		{"accept DO once", func(n *negotiator) { n.receive(cmdDO, 1); n.receive(cmdDO, 1) }, []string{"WILL 1"}, true, false},
		{"WONT when off is not answered", func(n *negotiator) { n.receive(cmdWONT, 1); n.receive(cmdDONT, 1) }, nil, false, false},
		{"disable acknowledged", func(n *negotiator) { n.receive(cmdWILL, 1); n.receive(cmdWONT, 1); n.receive(cmdWONT, 1) },
			[]string{"DO 1", "DONT 1"}, false, false},
		{"our request acknowledged", func(n *negotiator) { n.ask(1, false, true); n.receive(cmdWILL, 1) }, []string{"DO 1"}, false, true},
		{"our request refused", func(n *negotiator) { n.ask(1, true, true); n.receive(cmdDONT, 1); n.receive(cmdDONT, 1) },
			[]string{"WILL 1"}, false, false},
		{"queued opposite: enable then disable", func(n *negotiator) {
			n.ask(1, false, true)  // DO, WANTYES
			n.ask(1, false, false) // queue: disable after the answer
			n.receive(cmdWILL, 1)  // answer: now ask to disable
			n.receive(cmdWONT, 1)  // acknowledged
		}, []string{"DO 1", "DONT 1"}, false, false},
		{"queued opposite: disable then enable", func(n *negotiator) {
			n.receive(cmdWILL, 1)
			n.ask(1, false, false) // DONT, WANTNO
			n.ask(1, false, true)  // queue
			n.receive(cmdWONT, 1)  // answer: now ask again
			n.receive(cmdWILL, 1)
		}, []string{"DO 1", "DONT 1", "DO 1"}, false, true},
		{"duplicate ask sends once", func(n *negotiator) { n.ask(1, true, true); n.ask(1, true, true) }, []string{"WILL 1"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sent []string
			n := newTestNegotiator(&sent, true)
			tt.steps(n)
			if fmt.Sprint(sent) != fmt.Sprint(tt.sent) || n.enabled(1, true) != tt.us || n.enabled(1, false) != tt.him {
				t.Fatalf("sent %q us %v him %v; want %q %v %v", sent, n.enabled(1, true), n.enabled(1, false), tt.sent, tt.us, tt.him)
			}
		})
	}
}

func TestQMethodRefusesPolitely(t *testing.T) {
	var sent []string
	n := newTestNegotiator(&sent, false)
	n.receive(cmdWILL, 39)
	n.receive(cmdDO, 39)
	n.receive(cmdWONT, 39) // answers to our refusals: not answered again
	n.receive(cmdDONT, 39)
	if want := []string{"DONT 39", "WONT 39"}; fmt.Sprint(sent) != fmt.Sprint(want) {
		t.Fatalf("sent %q, want %q", sent, want)
	}
}

// TestQMethodNoLoop pairs two Q-method negotiators that disagree and keep
// changing their minds: the exchange must die out, every message being
// answered at most once.
func TestQMethodNoLoop(t *testing.T) {
	var aq, bq [][2]byte
	a := &negotiator{allowUs: func(byte) bool { return true }, allowHim: func(byte) bool { return false }}
	b := &negotiator{allowUs: func(o byte) bool { return o%2 == 0 }, allowHim: func(byte) bool { return true }}
	a.send = func(c, o byte) { bq = append(bq, [2]byte{c, o}) } // a's messages go to b
	b.send = func(c, o byte) { aq = append(aq, [2]byte{c, o}) }
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 200; round++ {
		opt := byte(rng.Intn(4))
		a.ask(opt, rng.Intn(2) == 0, rng.Intn(2) == 0)
		b.ask(opt, rng.Intn(2) == 0, rng.Intn(2) == 0)
		for steps := 0; len(aq)+len(bq) > 0; steps++ {
			if steps > 100 {
				t.Fatalf("round %d: negotiation does not settle", round)
			}
			if len(aq) > 0 {
				m := aq[0]
				aq = aq[1:]
				a.receive(m[0], m[1])
			}
			if len(bq) > 0 {
				m := bq[0]
				bq = bq[1:]
				b.receive(m[0], m[1])
			}
		}
		for o := byte(0); o < 4; o++ {
			// Once quiet, both ends agree on each side of each option.
			if a.us[o].state == qYes != (b.him[o].state == qYes) || a.him[o].state == qYes != (b.us[o].state == qYes) {
				t.Fatalf("round %d option %d: states disagree: a %+v %+v b %+v %+v", round, o, a.us[o], a.him[o], b.us[o], b.him[o])
			}
		}
	}
}

// FuzzDecoder feeds arbitrary server streams, split at an arbitrary
// point: the decoder must not panic, must give the same result however the
// stream is split, and data escaped with escapeIAC must come back as it
// was.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte("ab\xff\xffc\xff\xfb\x01d\xff\xfa\x18\x01\xff\xf0e"), 3)
	f.Add([]byte("\xff\xfa\x1f\xff\xff\x00\xff\xf0\xff\xf9"), 1)
	f.Add([]byte("\xff\xfa\xff\xfb"), 2)
	f.Fuzz(func(t *testing.T, stream []byte, cut int) {
		if cut < 0 {
			cut = -cut
		}
		cut %= len(stream) + 1
		var d1, d2 decoder
		var r1, r2 recorder
		d1.feed(stream, &r1)
		d2.feed(stream[:cut], &r2)
		d2.feed(stream[cut:], &r2)
		if r1.out.String() != r2.out.String() || fmt.Sprint(r1.ev) != fmt.Sprint(r2.ev) {
			t.Fatalf("split at %d changes the result: %q %q vs %q %q", cut, r1.out.String(), r1.ev, r2.out.String(), r2.ev)
		}
		var d3 decoder
		var r3 recorder
		d3.feed(escapeIAC(nil, stream), &r3)
		if r3.out.String() != string(stream) || len(r3.ev) != 0 {
			t.Fatalf("escaped data %q decodes to %q %q", stream, r3.out.String(), r3.ev)
		}
	})
}
