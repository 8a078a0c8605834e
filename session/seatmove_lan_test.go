package session

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"
	"aeroplane/web"
	"aeroplane/web/client"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// killHard stops a program as kill -9 would: its network first (no
// goodbye reaches anyone), then the page server and everything else;
// nothing is marked closed.
func killHard(s *NetSession, pages *web.Server) {
	s.h.Close()
	pages.Close()
	s.cancel()
	s.wg.Wait()
	if s.d != nil {
		s.d.Close()
	}
	s.t.Close()
	s.q.close()
}

// forgedMove is a statement in client.SeatMove's wire form for m, signed
// by key, which is not m.Seat's.
func forgedMove(t *testing.T, key crypto.PrivKey, m client.SeatMove) []byte {
	t.Helper()
	b := append([]byte{1}, m.Game[:]...)
	b = binary.BigEndian.AppendUint64(b, m.Counter)
	b = append(append(b, byte(len(m.Seat))), m.Seat...)
	b = append(append(b, byte(len(m.Host))), m.Host...)
	sig, err := key.Sign(append([]byte("aeroplane/seat-move/v1\n"), b...))
	if err != nil {
		t.Fatal(err)
	}
	return append(append(b, byte(len(sig))), sig...)
}

// A web player whose serving laptop is killed mid-game comes back
// through another laptop: Wendy plays from a browser (the client
// natively, over a real WebSocket) served by Ann's program, beside Bob's
// program and a bot. Her phone locks: Ann's and Bob's programs vote her
// absent, a bot flies her seat; then Ann's program is killed hard, and
// Bob, alone, goes on with a bot in Ann's seat too. Wendy's page dials
// Bob's program, proves her key, moves her seat there with a statement
// she signs, returns through lockstep's normal return and plays on: Bob
// and Wendy end on one history, Bob's log names no cheat and Wendy's
// verifies. Bob saved the move beside his log. A forged statement (another key), an older one of
// Wendy's replayed, and one of another game, told to Bob by a program
// of the table, are each refused, counted, and change nothing.
func TestWebPlayerMovesToAnotherLaptop(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	fast := func(o *NetOptions) { o.AbsentTicks, o.GoOnAlone = 5, true }
	bob, ann := newNetTestWith(t, "Bob", fast), newNetTestWith(t, "Ann", fast)
	pagesA := servePages(t, ann)
	pagesB := servePages(t, bob)
	openTableWithBot(t, bob)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard
	defer cancel()
	wendy := newBrowser(t)
	sock := dialWebSeat(t, pagesA.URLs()[0])
	person := &webPerson{t: t, s: sock, id: wendy.ID.String(), triedBob: true}
	lg := client.NewMemLog()
	absent, returned := make(chan struct{}), make(chan struct{}) // as Bob's program saw Wendy
	var absentOnce, returnedOnce sync.Once
	killed := make(chan struct{}) // Ann's program is gone
	dialled := 0
	redial := func(ctx context.Context) (client.Socket, error) {
		select {
		case <-killed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		dialled++
		return dialWeb(pagesB.URLs()[0]) // Ann's laptop is gone: Bob's page
	}
	type end struct {
		st  lockstep.State
		err error
	}
	webEnd := make(chan end, 1)
	var chosenAfter atomic.Int32 // Wendy's choices once her seat moved
	var asked atomic.Int32
	var lockOnce sync.Once
	go func() {
		st, err := client.Play(ctx, sock, wendy, client.GameConfig{Log: lg, OnTable: person.onTable, Redial: redial,
			AskMove: func(moves []engine.Move, choose func(engine.Move) error) {
				if asked.Add(1) == 3 {
					lockOnce.Do(func() { sock.Close() }) // the phone locks
				}
				select {
				case <-returned:
					chosenAfter.Add(1)
				default:
				}
				go func() { _ = choose(moves[0]) }() // refused once the others voted her absent: a bot chose
			}})
		webEnd <- end{st, err}
	}()

	// Ann joins Bob's table; her program is killed once Wendy is voted
	// absent (with Wendy away, Bob alone then goes on without Ann).
	annEvents := bobLoop(t, bob, ann, 1<<30, func() {})

	var presence []bool
	threats := make(chan []error, 1)
	toldHere := false // Bob's screen said Wendy plays through his laptop now
	p := &netPlayer{s: bob}
	var over ui.GameOver
	for over.LogPath == "" {
		var e ui.Event
		select {
		case e = <-bob.Events():
		case <-ctx.Done():
			t.Fatal("Bob's game did not end")
		}
		switch e := e.(type) {
		case ui.TableUpdate:
			p.sayReady(t, e)
		case ui.Presence:
			if e.Name != "Wendy" {
				break
			}
			presence = append(presence, e.Present)
			if !e.Present {
				absentOnce.Do(func() {
					close(absent)
					killHard(ann, pagesA)
					close(killed)
				})
			} else {
				returnedOnce.Do(func() {
					close(returned)
					go func() { threats <- tryThreats(t, bob, wendy, ann.self) }()
				})
			}
		case ui.Rolled:
			if !e.YouChoose {
				break
			}
			// While Wendy is away Bob takes his time (well within the
			// others' patience), so the game is still on when she is back.
			select {
			case <-killed:
				select {
				case <-returned:
				case <-time.After(3 * time.Second):
				}
			default:
			}
			if err := bob.Choose(e.Moves[0]); err != nil {
				t.Logf("Bob's choice: %v", err)
			}
		case ui.Notice:
			if e.Msg.Key == "note.seat.movedhere" && len(e.Msg.Args) == 1 && e.Msg.Args[0] == "Wendy" {
				toldHere = true
			}
		case ui.GameOver:
			over = e
		}
	}
	<-annEvents
	w := <-webEnd
	if w.err != nil || w.st.Phase != lockstep.PhaseOver {
		t.Fatalf("Wendy: phase %s, err %v", w.st.Phase, w.err)
	}
	vb, err := lockstep.Verify(mustRead(t, over.LogPath))
	if err != nil || vb.Phase != lockstep.PhaseOver {
		t.Fatalf("Bob's log: %v, %v", vb, err)
	}
	vw, err := lockstep.Verify(lg.Bytes())
	if err != nil {
		t.Fatalf("Wendy's log does not verify: %v", err)
	}
	for _, e := range vw.Cheats {
		if e.Kind != lockstep.EventStateMismatch { // cut off while her node ran (as TestWebPlayerAtLANTable)
			t.Errorf("Wendy's log: %v", e)
		}
	}
	if vw.History != vb.History || w.st.History != vb.History || vw.Phase != lockstep.PhaseOver {
		t.Fatalf("Wendy ended on %x (log %x), Bob on %x", w.st.History[:6], vw.History[:6], vb.History[:6])
	}
	if len(vb.Cheats) != 0 {
		t.Errorf("Bob's log names cheats: %v", vb.Cheats)
	}
	if len(presence) < 2 || presence[0] || !presence[len(presence)-1] || dialled == 0 || chosenAfter.Load() == 0 {
		t.Fatalf("Bob saw Wendy's presence go %v (she dialled his page %d times, chose %d times after), want absent and back", presence, dialled, chosenAfter.Load())
	}
	if !toldHere {
		t.Error("Bob's screen never said Wendy plays on through his laptop")
	}
	// Bob keeps her new host beside his log, and the statement that moved it.
	setup := vb.Setup
	if h := bob.dir.SeatHosts(setup)[wendy.ID]; h != bob.self {
		t.Errorf("Bob saved Wendy's host as %s, want his own", p2p.ShortID(h))
	}
	if moves := bob.dir.SeatMoves(setup.GameID()); len(moves) != 1 {
		t.Errorf("Bob saved %d seat moves, want 1", len(moves))
	} else if m, err := client.ParseSeatMove(moves[0]); err != nil || m.Seat != wendy.ID || m.Host != bob.self {
		t.Errorf("Bob's saved seat move: %v, %v", m, err)
	}
	for i, err := range <-threats {
		if err != nil {
			t.Errorf("threat %d: %v", i, err)
		}
	}
	t.Logf("one history %x after %d rolls; Wendy dialled Bob's page %d times", vb.History[:8], vb.Rolls, dialled)
}

// tryThreats tells Bob's running game, as Ann's program (a program of the
// table), three statements that must not move Wendy's seat: one signed
// by another key, an older one of Wendy's own, one for another game.
// Each must be refused and counted, Wendy's seat staying with Bob.
func tryThreats(t *testing.T, bob *NetSession, wendy *client.Identity, from peer.ID) []error {
	bob.mu.Lock()
	g := bob.sess
	bob.mu.Unlock()
	if g == nil {
		return []error{errors.New("the game ended before the threats")}
	}
	_, mallory := newID(t)
	gid := g.link.moves.game
	older, err1 := wendy.SignSeatMove(client.SeatMove{Game: gid, Seat: wendy.ID, Host: from, Counter: 1})
	other, err2 := wendy.SignSeatMove(client.SeatMove{Game: lockstep.GameID{7}, Seat: wendy.ID, Host: from, Counter: 1 << 62})
	if err := errors.Join(err1, err2); err != nil {
		return []error{err}
	}
	forged := forgedMove(t, mallory, client.SeatMove{Game: gid, Seat: wendy.ID, Host: from, Counter: 1 << 62})
	var errs []error
	for _, tc := range []struct {
		name string
		stmt []byte
	}{{"forged", forged}, {"older", older}, {"another game", other}} {
		before := g.link.MovesRefused.Load()
		g.link.receiveMove(p2p.Inbound{From: from, Kind: p2p.KindSeatMove, Data: tc.stmt})
		var err error
		if n := g.link.MovesRefused.Load(); n != before+1 {
			err = errors.New(tc.name + ": not counted")
		}
		if h := g.link.hostOf(wendy.ID); h != bob.self {
			err = errors.Join(err, errors.New(tc.name+": moved Wendy's seat to "+p2p.ShortID(h)))
		}
		errs = append(errs, err)
	}
	// Over a browser's socket at Bob's: a statement of another seat than
	// the socket's key, and one naming another program, move nothing.
	mallID, _ := newID(t)
	newer, err := wendy.SignSeatMove(client.SeatMove{Game: gid, Seat: wendy.ID, Host: bob.self, Counter: 1 << 62})
	if err != nil {
		return append(errs, err)
	}
	if err := g.MoveSeatHere(mallID, newer); !errors.Is(err, errMoveForged) {
		errs = append(errs, fmt.Errorf("another socket's statement: %v", err))
	}
	if err := g.MoveSeatHere(wendy.ID, older); !errors.Is(err, errMoveElsewhere) {
		errs = append(errs, fmt.Errorf("a statement naming another program: %v", err))
	}
	if h := g.link.hostOf(wendy.ID); h != bob.self {
		errs = append(errs, errors.New("a socket's statement moved Wendy's seat to "+p2p.ShortID(h)))
	}
	return errs
}
