package session

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/ui"
	"aeroplane/web/client"
)

// TestWebPlayerRematchLAN: a web player plays a game at Ann's LAN table
// (Ann serves its page) with Bob of another program and a bot, at the
// colour it asked for; at the end everyone asks for the rematch, as the
// terminal's r does: Ann, the creator, reopens the table with the same
// seats, Bob joins it asking for his colour, and the page (client.Play
// again, over a new socket, with the person's name and last colour, as
// the page's Rematch button does; the last game's setup, which Ann's
// program sends it again while it lingers on that game, is not taken) sits down at once, wherever the table
// puts it, and asks for its colour back. The second game seats all three
// at their colours of the first and ends on one history for the three.
func TestWebPlayerRematchLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a, b := newNetTest(t, "Ann"), newNetTest(t, "Bob")
	srv := servePages(t, a)
	openTableWithBot(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard
	defer cancel()
	wendy := newBrowser(t)
	type webEnd struct {
		st     lockstep.State
		colour engine.Colour
		id     lockstep.GameID
		log    []byte
		seats  []string // the colours the page sat at before the game, in order
		err    error
	}
	// page plays one game as the page does: sits as Wendy asking for
	// colour, says ready whenever its seat is not.
	page := func(colour string, past lockstep.GameID, out chan<- webEnd) {
		sock, err := dialWeb(srv.URLs()[0])
		if err != nil {
			out <- webEnd{err: err}
			return
		}
		defer sock.Close()
		var seats []string
		var g *client.Game
		lg := client.NewMemLog()
		st, err := client.Play(ctx, sock, wendy, client.GameConfig{Log: lg, Name: "Wendy", Colour: colour,
			OnStart: func(x *client.Game) { g = x }, Past: past,
			OnTable: func(tb client.Table) {
				me, ok := tb.Seat(wendy.ID.String())
				if !ok {
					return
				}
				if len(seats) == 0 || seats[len(seats)-1] != me.Colour {
					seats = append(seats, me.Colour)
				}
				if !me.Ready {
					_ = client.SendLobby(sock, client.LobbyCmd{T: client.CmdReady, Ready: true})
				}
			}})
		e := webEnd{st: st, log: lg.Bytes(), seats: seats, err: err, colour: engine.NoColour}
		if g != nil {
			e.colour, e.id = g.Colour(), g.GameID()
		}
		out <- e
	}
	check := func(game string, e webEnd, pa *netPlayer) {
		t.Helper()
		if e.err != nil || e.st.Phase != lockstep.PhaseOver || e.colour != engine.Green {
			t.Fatalf("%s: the web player ended %v at %v (%v), want over at Green", game, e.st.Phase, e.colour, e.err)
		}
		data, err := os.ReadFile(pa.over.LogPath)
		if err != nil {
			t.Fatal(err)
		}
		va, err := lockstep.Verify(data)
		if err != nil {
			t.Fatal(err)
		}
		vw, err := lockstep.Verify(e.log)
		if err != nil || vw.History != va.History || e.st.History != va.History || len(va.Setup.Players()) != 3 {
			t.Fatalf("%s: the web player's log %v (%v) ended on %x, Ann's on %x with players %v", game, vw.History, err, e.st.History[:6], va.History[:6], va.Setup.Players())
		}
	}

	// The first game: the page starts once Bob is at the table, so the
	// colours are Ann's Red, Bob's Blue and the Green the page asks for.
	first := make(chan webEnd, 1)
	var once sync.Once
	onA := func(e ui.Event) {
		if u, ok := e.(ui.TableUpdate); ok && u.Seats[engine.Blue].Name == "Bob" {
			once.Do(func() { go page("G", lockstep.GameID{}, first) })
		}
	}
	pa, pb := playBothAt(t, a, b, engine.Red, engine.Blue, onA, joinOnce(t, a, b))
	checkBoth(t, pa, pb)
	e1 := <-first
	check("the first game", e1, pa)

	// The rematch: the page comes back at once (it may land at any free
	// colour, and asks for Green), Bob and Ann press r.
	second := make(chan webEnd, 1)
	go page("G", e1.id, second)
	if err := b.Rematch(); err != nil {
		t.Fatal(err)
	}
	if err := a.Rematch(); err != nil {
		t.Fatal(err)
	}
	pa2, pb2 := playBothAt(t, a, b, engine.Red, engine.Blue, nil, nil)
	checkBoth(t, pa2, pb2)
	e := <-second
	check("the rematch", e, pa2)
	if pa2.over.LogPath == pa.over.LogPath {
		t.Fatal("the rematch wrote over the first game's log")
	}
	t.Logf("the rematch: the page sat at %v before the game", e.seats)
}
