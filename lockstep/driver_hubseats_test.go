package lockstep_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"aeroplane/internal/testkit"
	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/peer"
)

// hubFrame waits for l's next frame.
func hubFrame(t *testing.T, l lockstep.Link) lockstep.Frame {
	t.Helper()
	select {
	case f := <-l.Frames():
		return f
	case <-time.After(5 * time.Second):
		t.Fatal("no frame")
		return lockstep.Frame{}
	}
}

func hubQuiet(t *testing.T, l lockstep.Link) {
	t.Helper()
	select {
	case f := <-l.Frames():
		t.Fatalf("unexpected frame %+v", f)
	case <-time.After(50 * time.Millisecond):
	}
}

// A seat added to a running hub (a web player's seat moved to this
// program mid-game) is one of its seats from then on: the outer link's
// frames for it and for everyone reach it, the program's seats talk to
// it in memory, and what it says for everyone goes out too. Removed (it
// moved on), it hears nothing more and frames for it go out.
func TestHubAddSeatWhileRunning(t *testing.T) {
	prog, wendy, carl := testkit.ID(70), testkit.ID(71), testkit.ID(72)
	net := newSeatNet(map[peer.ID]peer.ID{prog: prog, wendy: prog, carl: carl})
	net.hosts[wendy] = prog
	hub, err := lockstep.NewHub(net.progs[prog], prog)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { hub.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	own := hub.Link(prog)
	if hub.Link(wendy) != nil {
		t.Fatal("a seat not added has a link")
	}
	w, err := hub.AddSeat(wendy)
	if err != nil {
		t.Fatal(err)
	}
	if hub.Link(wendy) != w {
		t.Fatal("the added seat's link is not the hub's")
	}
	if _, err := hub.AddSeat(wendy); !errors.Is(err, lockstep.ErrHubSeats) {
		t.Errorf("a seat added twice: %v", err)
	}
	carlOut := net.progs[carl]
	outer := net.progs[prog].frames

	outer <- lockstep.Frame{From: carl, To: wendy, Data: []byte("for wendy")}
	if f := hubFrame(t, w); f.From != carl || string(f.Data) != "for wendy" {
		t.Fatalf("wendy got %+v", f)
	}
	hubQuiet(t, own)
	outer <- lockstep.Frame{From: carl, Data: []byte("for all")}
	for _, l := range []lockstep.Link{own, w} {
		if f := hubFrame(t, l); f.From != carl || string(f.Data) != "for all" {
			t.Fatalf("a seat got %+v", f)
		}
	}
	if err := w.Send(prog, []byte("wendy to prog")); err != nil {
		t.Fatal(err)
	}
	if f := hubFrame(t, own); f.From != wendy || string(f.Data) != "wendy to prog" {
		t.Fatalf("the program's seat got %+v", f)
	}
	if err := w.Send("", []byte("wendy to all")); err != nil {
		t.Fatal(err)
	}
	if f := hubFrame(t, own); f.From != wendy || string(f.Data) != "wendy to all" {
		t.Fatalf("the program's seat got %+v", f)
	}
	if f := hubFrame(t, carlOut); f.From != wendy || string(f.Data) != "wendy to all" {
		t.Fatalf("carl got %+v", f)
	}
	if err := own.Send(wendy, []byte("prog to wendy")); err != nil {
		t.Fatal(err)
	}
	if f := hubFrame(t, w); f.From != prog || string(f.Data) != "prog to wendy" {
		t.Fatalf("wendy got %+v", f)
	}

	if err := hub.RemoveSeat(wendy); err != nil {
		t.Fatal(err)
	}
	net.hosts[wendy] = carl // she plays through Carl's program now
	if err := own.Send(wendy, []byte("after")); err != nil {
		t.Fatal(err)
	}
	if f := hubFrame(t, carlOut); f.From != prog || f.To != wendy || string(f.Data) != "after" {
		t.Fatalf("carl got %+v", f)
	}
	outer <- lockstep.Frame{From: carl, Data: []byte("all again")}
	if f := hubFrame(t, own); string(f.Data) != "all again" {
		t.Fatalf("the program's seat got %+v", f)
	}
	hubQuiet(t, w)
	for name, err := range map[string]error{
		"removed twice": hub.RemoveSeat(wendy),
		"the last seat": hub.RemoveSeat(prog),
		"no ID":         func() error { _, err := hub.AddSeat(""); return err }(),
	} {
		if !errors.Is(err, lockstep.ErrHubSeats) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if d := hub.Dropped.Load(); d != 0 {
		t.Errorf("the hub dropped %d frames", d)
	}
}
