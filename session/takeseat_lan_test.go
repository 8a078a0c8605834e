package session

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/p2ptest"
	"aeroplane/internal/testkit"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A late arrival through the session the screen uses, all three
// programs in one process (so -race sees the session's goroutines):
// Ann and Bob play with two bots; Zoe's lobby lists the running game
// with its free seats, and Zoe's TakeSeat reads a player's log, is
// admitted, asks, and flies the first bot seat to the end. The three end
// on one history, Ann's screen is told "Zoe takes … from roll N" and
// shows Zoe in that seat, and Zoe's own log (game-take-…) verifies with
// Zoe as the seat's owner from that roll.
func TestNetTakeSeatLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	type seen struct {
		mu    sync.Mutex
		ended []lockstep.State
		info  *GameInfo
		taken []lockstep.Event
		done  chan struct{}
	}
	obs := map[string]*seen{}
	sess := map[string]*NetSession{}
	for _, name := range []string{"Ann", "Bob", "Zoe"} {
		o := &seen{done: make(chan struct{})}
		obs[name] = o
		var s *NetSession
		s = newNetTestWith(t, name, func(opts *NetOptions) {
			opts.AutoReady, opts.NoResume = true, true
			opts.Observer = Observer{
				Ready: func(_ GameInfo, rd lockstep.Ready) {
					o.mu.Lock()
					for _, e := range rd.Events {
						if e.Kind == lockstep.EventSeatTaken {
							o.taken = append(o.taken, e)
						}
					}
					o.mu.Unlock()
					if st := rd.State; st.Phase == lockstep.PhaseMove && len(st.Moves) > 0 {
						m := st.Moves[0]
						time.AfterFunc(100*time.Millisecond, func() { _ = s.Choose(m) }) // a person's pace: the game outlasts the take
					}
				},
				Ended: func(info *GameInfo, st lockstep.State, err error) {
					o.mu.Lock()
					defer o.mu.Unlock()
					if err != nil {
						t.Errorf("%s: %v", name, err)
					}
					o.ended, o.info = append(o.ended, st), info
					if len(o.ended) == 1 {
						close(o.done)
					}
				},
			}
		})
		sess[name] = s
	}
	listed := make(chan ui.RunningGame, 1)
	go func() {
		for e := range sess["Zoe"].Events() {
			if u, ok := e.(ui.LobbyUpdate); ok && len(u.Running) > 0 && u.Running[0].Roll >= 10 {
				select {
				case listed <- u.Running[0]:
				default:
				}
			}
		}
	}()
	var annMu sync.Mutex
	var annNotes []string
	var annTables []ui.TableUpdate
	go func() {
		for e := range sess["Ann"].Events() {
			annMu.Lock()
			switch e := e.(type) {
			case ui.Notice:
				annNotes = append(annNotes, e.Msg.String())
			case ui.TableUpdate:
				annTables = append(annTables, e)
			}
			annMu.Unlock()
		}
	}()
	go func() {
		for range sess["Bob"].Events() {
		}
	}()
	if err := sess["Ann"].Enter(lobby.Config{Lobby: "late", Players: 2, Bots: 2, FindFor: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if err := sess["Bob"].Enter(lobby.Config{Lobby: "late", FindFor: time.Minute}); err != nil {
		t.Fatal(err)
	}
	var g ui.RunningGame
	select {
	case g = <-listed:
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("Zoe's lobby never listed the running game at roll 10 or later")
	}
	if g.Lobby != "late" || g.Free != 2 {
		t.Fatalf("the listed game: %+v, want late with 2 free seats", g)
	}
	if err := sess["Zoe"].TakeSeat(g.Lobby, engine.NoColour); err != nil {
		t.Fatal(err)
	}
	for name, o := range obs {
		select {
		case <-o.done:
		case <-time.After(3 * time.Minute):
			t.Fatalf("%s never saw the end", name)
		}
	}
	want := obs["Ann"].ended[0].History
	var seat lockstep.Event
	for name, o := range obs {
		o.mu.Lock()
		if st := o.ended[0]; st.Phase != lockstep.PhaseOver || st.History != want {
			t.Errorf("%s ended in %s with %x; Ann with %x", name, st.Phase, st.History, want)
		}
		if len(o.taken) != 1 || o.taken[0].Peer != sess["Zoe"].ID() {
			t.Errorf("%s saw the seat changes %v, want Zoe's", name, o.taken)
		} else if seat.Kind == 0 {
			seat = o.taken[0]
		} else if o.taken[0].Colour != seat.Colour || o.taken[0].Roll != seat.Roll {
			t.Errorf("%s: Zoe took %s from roll %d; elsewhere %s from %d", name, o.taken[0].Colour, o.taken[0].Roll, seat.Colour, seat.Roll)
		}
		o.mu.Unlock()
	}
	if seat.Roll < 10 {
		t.Errorf("Zoe flies %s from roll %d, want ≥ 10", seat.Colour, seat.Roll)
	}
	note := "Zoe takes " + seat.Colour.String() + " from roll "
	annMu.Lock()
	told := false
	for _, n := range annNotes {
		told = told || strings.HasPrefix(n, note)
	}
	shown := len(annTables) > 0 && annTables[len(annTables)-1].Seats[seat.Colour].Name == "Zoe"
	annMu.Unlock()
	if !told || !shown {
		t.Errorf("Ann was told %q: %v; her table shows Zoe in %s: %v", note, told, seat.Colour, shown)
	}
	zi := obs["Zoe"].info
	if zi == nil || !strings.Contains(zi.Log, "game-take-") {
		t.Fatalf("Zoe's game: %+v", zi)
	}
	data, err := os.ReadFile(zi.Log)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.History != want || len(v.Cheats) > 0 {
		t.Fatalf("Zoe's log: %v, history %x, cheats %v", err, v.History, v.Cheats)
	}
	owner := v.Seats[len(v.Seats)-1]
	if owner.Player != sess["Zoe"].ID() || owner.Colour != seat.Colour || owner.From != seat.Roll {
		t.Errorf("Zoe's log says the last seat owner is %+v", owner)
	}
}

// An admitted newcomer sends its own messages, never another's: a game
// frame it relays signed by a player is dropped by the player's link
// before any node sees it; its own frame passes, and is pushed on to the
// other newcomer admitted (newcomers are not connected to each other).
func TestTransportLinkNewcomerRelayRefused(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	player, nc, nc2 := seatTestTransport(t, testkit.Key(80)), seatTestTransport(t, testkit.Key(81)), seatTestTransport(t, testkit.Key(83))
	p2ptest.ConnectPair(t, player, nc) // lobby browsing: anyone may connect
	p2ptest.ConnectPair(t, player, nc2)
	pid, nid, nid2 := player.Host().ID(), nc.Host().ID(), nc2.Host().ID()
	player.SetMembers([]peer.ID{pid, testkit.ID(82)})
	nc.SetMembers([]peer.ID{pid})
	nc2.SetMembers([]peer.ID{pid})
	for _, id := range []peer.ID{nid, nid2} {
		if err := player.AdmitGuest(id); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for !player.Connected(nid) || !nc.Connected(pid) || !player.Connected(nid2) || !nc2.Connected(pid) {
		if time.Now().After(deadline) {
			t.Fatal("no game stream to the admitted newcomers")
		}
		time.Sleep(10 * time.Millisecond)
	}
	l := NewTransportLink(player, nil, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go l.run(ctx)
	// Frames that SignedBy reads as signed by a player, then by the newcomer.
	signed := func(by peer.ID) []byte {
		b := []byte{byte(lockstep.Version), 1}
		b = append(b, make([]byte, 32)...)
		b = append(b, byte(len(by)))
		return append(b, by...)
	}
	if lockstep.SignedBy(signed(pid)) != pid {
		t.Fatal("the test's frame does not name its signer as lockstep reads it")
	}
	if err := nc.Send(pid, p2p.KindGame, signed(pid)); err != nil {
		t.Fatal(err)
	}
	if err := nc.Send(pid, p2p.KindGame, signed(nid)); err != nil {
		t.Fatal(err)
	}
	select {
	case f := <-l.Frames():
		if lockstep.SignedBy(f.Data) != nid {
			t.Fatalf("the node got a frame signed by %s, want only the newcomer's own", lockstep.ShortID(lockstep.SignedBy(f.Data)))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the newcomer's own frame never reached the node")
	}
	if n := l.Refused.Load(); n != 1 {
		t.Errorf("refused %d frames, want the relayed one", n)
	}
	select {
	case in := <-nc2.Inbox():
		if in.From != pid || lockstep.SignedBy(in.Data) != nid {
			t.Errorf("the other newcomer got %s's frame signed by %s, want the newcomer's from the player", lockstep.ShortID(in.From), lockstep.ShortID(lockstep.SignedBy(in.Data)))
		}
	case <-time.After(10 * time.Second):
		t.Error("the newcomer's own frame was not pushed on to the other newcomer")
	}
}
