package p2p_test

import (
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/internal/testkit"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A program says a line for a seat it hosts (a web player): the others
// take it as the seat's, in order, and drop a replay; a line for a seat
// its sender does not host, or one cut short, is refused.
func TestSeatChat(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	host, other := p2ptest.NewTransport(t, p2ptest.FastConfig(t)), p2ptest.NewTransport(t, p2ptest.FastConfig(t))
	p2ptest.ConnectPair(t, host, other)
	wendy, wilma := testkit.ID(50), testkit.ID(51)
	hosts := func(seat, prog peer.ID) bool { return seat == wendy && prog == host.Host().ID() }
	say, hear := p2p.NewChat(host), p2p.NewChat(other)
	next := func() p2p.Inbound {
		t.Helper()
		select {
		case in := <-other.Inbox():
			return in
		case <-time.After(5 * time.Second):
			t.Fatal("no frame")
			return p2p.Inbound{}
		}
	}
	for i, text := range []string{"hello", "from the phone"} {
		line, err := say.SayFor(wendy, text)
		if err != nil || line.From != wendy || line.Seq != uint64(i+1) {
			t.Fatalf("SayFor: %+v, %v", line, err)
		}
		in := next()
		got, err := hear.ReceiveSeat(in, hosts)
		if in.Kind != p2p.KindSeatChat || err != nil || got.From != wendy || got.Text != text || got.Seq != uint64(i+1) {
			t.Fatalf("line %d: %v %+v, %v", i, in.Kind, got, err)
		}
		if _, err := hear.ReceiveSeat(in, hosts); err == nil {
			t.Fatal("a replayed line was taken")
		}
	}
	if _, err := say.SayFor(wilma, "not hosted"); err != nil {
		t.Fatal(err)
	}
	if got, err := hear.ReceiveSeat(next(), hosts); err == nil {
		t.Fatalf("a line of a seat its sender does not host was taken: %+v", got)
	}
	for _, bad := range [][]byte{nil, {0}, {40, 1, 2}} {
		if _, err := hear.ReceiveSeat(p2p.Inbound{From: host.Host().ID(), Kind: p2p.KindSeatChat, Data: bad}, hosts); err == nil {
			t.Errorf("seat line %x taken", bad)
		}
	}
	if _, err := say.SayFor("", "x"); err == nil {
		t.Error("a line of no seat was sent")
	}
}
