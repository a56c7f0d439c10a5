package prospero

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/urlget/urlget/schemes"
	"github.com/urlget/urlget/transport"
)

// TestExchangeUserTimeouts: --connect-timeout (firstReply) bounds the wait
// for the server's first packet and --idle-timeout (idle) each wait after
// it, the first too when there is no connect timeout; the ISI schedule
// (here 1 s, then 2 s, …) and the exchange's bound no longer decide alone
// (a silent server took a minute whatever the flags said). A reply that
// keeps coming is not cut by either.
func TestExchangeUserTimeouts(t *testing.T) {
	packet := func(seq, total int) []byte { return []byte{0x09, 0, 0, 0, byte(seq), 0, byte(total), 0, 1, 'a'} }
	silent := func() *peer { return newPeer(t, func(*net.UDPConn, *net.UDPAddr, []byte) {}) }
	for _, tc := range []struct {
		name             string
		peer             func() *peer
		firstReply, idle time.Duration
		socketIdle       time.Duration // a transport.Conn's own idle deadline, 0: a plain socket
		words            schemes.Words // the caller's words for the settings
		want             string        // in the error; "" for success
		bound            time.Duration // how long the exchange may take, about
	}{
		{name: "silent server, --connect-timeout", peer: silent, firstReply: 200 * time.Millisecond,
			idle: time.Hour, want: "no reply from the server within 200ms (transport.ConnectTimeout, which bounds", bound: 200 * time.Millisecond},
		{name: "silent server, --idle-timeout alone", peer: silent, idle: 200 * time.Millisecond,
			want: "no reply from the server within 200ms (transport.IdleTimeout; the request was sent", bound: 200 * time.Millisecond},
		{name: "silent server, --connect-timeout in the caller's words", peer: silent, firstReply: 200 * time.Millisecond,
			idle: time.Hour, words: callerWords, want: "within 200ms (<transport.ConnectTimeout>, which bounds", bound: 200 * time.Millisecond},
		{name: "silent server, --idle-timeout alone in the caller's words", peer: silent, idle: 200 * time.Millisecond,
			words: callerWords, want: "within 200ms (<transport.IdleTimeout>; the request", bound: 200 * time.Millisecond},
		{name: "silent server, the socket's idle deadline sooner", peer: silent, firstReply: 300 * time.Millisecond,
			socketIdle: 50 * time.Millisecond, want: "within 300ms (transport.ConnectTimeout", bound: 300 * time.Millisecond},
		{name: "one packet, then silence", peer: func() *peer {
			return newPeer(t, func(pc *net.UDPConn, from *net.UDPAddr, pk []byte) {
				if h, _, _ := parseHeader(pk); h.seq == 1 {
					sendReply(pc, from, packet(1, 3)[:9], cidOf(pk), []byte("a"))
				}
			})
		}, firstReply: time.Hour, idle: 200 * time.Millisecond, want: "fell silent for 200ms after 1 packet (transport.IdleTimeout)",
			bound: 200 * time.Millisecond},
		{name: "a slow reply that keeps coming", peer: func() *peer {
			return trickler(t, 50*time.Millisecond, func(i int) []byte { return packet(min(i+1, 10), 10) })
		}, firstReply: 100 * time.Millisecond, idle: 200 * time.Millisecond, bound: 450 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, _ := hostileClient(t, tc.peer(), 5*time.Second)
			a.first = time.Second
			a.firstReply, a.idle, a.words = tc.firstReply, tc.idle, tc.words
			if tc.socketIdle > 0 {
				a.c = transport.Wrap(nil, a.c, tc.socketIdle)
			}
			start := time.Now()
			got, err := a.exchange(context.Background(), 9, []byte("x"))
			took := time.Since(start)
			switch {
			case tc.want == "" && (err != nil || len(got) != 10):
				t.Errorf("%q, %v; want the 10 packets", got, err)
			case tc.want != "":
				wantKind(t, err, schemes.KindTimeout, tc.want)
			}
			if took < tc.bound-10*time.Millisecond || took > tc.bound+time.Second {
				t.Errorf("ended after %v, want about %v", took, tc.bound)
			}
		})
	}
}

// TestExchangeBoundNamesMaxTime: an exchange that passed urlget's own
// bound says which setting of the caller's sets another, in its words.
func TestExchangeBoundNamesMaxTime(t *testing.T) {
	for words, want := range map[*schemes.Words]string{{}: "(fetch.MaxTime sets another)", &callerWords: "(<fetch.MaxTime> sets another)"} {
		err := (&ardpClient{limit: time.Minute, words: *words}).tooLong()
		if schemes.KindOf(err) != schemes.KindTimeout || !strings.HasSuffix(err.Error(), "urlget's bound on one ARDP exchange "+want) {
			t.Errorf("err %v, want a timeout ending %q", err, want)
		}
	}
}
