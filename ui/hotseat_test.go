package ui

import (
	"strings"
	"testing"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// hotFake is a session where several people can play at this screen.
type hotFake struct{ *fakeSession }

func (f hotFake) AddPerson(name string) error { return f.rec("person " + name) }

// hotTable is ann and bob at this laptop, a bot, and cat elsewhere.
func hotTable(started bool) TableUpdate {
	t := TableUpdate{GameID: "local", Host: true, Started: started}
	t.Seats[0] = Seat{Kind: SeatHuman, Name: "ann", PeerID: "12D3KooWabcdefXyZ123", You: true, Present: true, Ready: true}
	t.Seats[1] = Seat{Kind: SeatHuman, Name: "bob", PeerID: "12D3KooWbobbobQ9x8y7", You: true, Present: true, Ready: true}
	t.Seats[2] = Seat{Kind: SeatHuman, Name: "cat", PeerID: "12D3KooWqrstuvQ9x8y7", Present: true, Ready: true}
	t.Seats[3] = Seat{Kind: SeatBot, Name: "random", Present: true, Ready: true}
	return t
}

func hotUI(t fataler) (*UI, *fakeSession) {
	f := newFake()
	u := New(hotFake{f}, Options{Lang: "en"})
	u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "ann"}})
	u.Apply(hotTable(true))
	u.Apply(GameStarted{Position: mustPos(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H B 0 -"), Rules: engine.DefaultRules()})
	return u, f
}

// TestHotSeatTurnGolden pins the turn line of a hot seat at 80×24: it
// names the person at this laptop whose turn it is, for the roll and for
// the choice, and the roll key goes to the session (which routes it to
// that person's seat).
func TestHotSeatTurnGolden(t *testing.T) {
	u, f := hotUI(t)
	u.Apply(DiceWaiting{ToMove: engine.Blue, Waiting: []string{"bob"}, YouRoll: true})
	screen := render(t, u, 80, 24)
	checkGolden(t, "hotseat-roll-80x24", screen)
	if !strings.Contains(screen, "bob's turn (on this") || !strings.Contains(screen, "laptop): roll the die") { // wrapped in the panel
		t.Errorf("the turn line does not name bob:\n%s", screen)
	}
	u.HandleKey(ch(' '))
	u.Apply(Rolled{Colour: engine.Blue, Roll: 4, Moves: []engine.Move{{Colour: engine.Blue, Plane: 0}, {Colour: engine.Blue, Plane: 1}}, YouChoose: true})
	screen = render(t, u, 80, 24)
	checkGolden(t, "hotseat-choose-80x24", screen)
	if !strings.Contains(screen, "bob's turn (on this") || !strings.Contains(screen, "laptop): rolled [4]") {
		t.Errorf("the choice line does not name bob:\n%s", screen)
	}
	u.HandleKey(ch('2'))
	if got := strings.Join(f.took(), "|"); got != "roll|choose B1" {
		t.Errorf("commands %q, want the roll and bob's second move", got)
	}
}

// One person's screen says "your turn" as before: the names come only
// with several people here.
func TestHotSeatOnePersonSaysYourTurn(t *testing.T) {
	u, _ := gameUI(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H R 0 -", engine.DefaultRules())
	u.Apply(DiceWaiting{ToMove: engine.Red, Waiting: []string{"alice"}, YouRoll: true})
	if screen := render(t, u, 80, 24); !strings.Contains(screen, "Your turn: roll the die") || strings.Contains(screen, "on this laptop") {
		t.Errorf("one person's turn line:\n%s", screen)
	}
}

// At the table, p asks for a name and seats that person here.
func TestHotSeatAddPersonKey(t *testing.T) {
	f := newFake()
	u := New(hotFake{f}, Options{Lang: "en"})
	u.Apply(LobbyUpdate{Me: Peer{ID: "me", Name: "ann"}})
	tb := hotTable(false)
	tb.Seats[1] = Seat{Kind: SeatBot, Name: "greedy", Present: true, Ready: true}
	u.Apply(tb)
	u.HandleKey(ch('+'))
	typeText(u, "bob")
	if screen := render(t, u, 80, 24); !strings.Contains(screen, "Name of the person joining at this laptop: bob") {
		t.Errorf("no prompt for the person's name:\n%s", screen)
	}
	u.HandleKey(key(tcell.KeyEnter))
	if got := strings.Join(f.took(), "|"); got != "person bob" {
		t.Errorf("commands %q, want person bob", got)
	}
	// A session without hot seats has no such key.
	u2, f2 := seatUI(true, tb)
	u2.HandleKey(ch('+'))
	typeText(u2, "bob")
	u2.HandleKey(key(tcell.KeyEnter))
	for _, c := range f2.took() {
		if strings.HasPrefix(c, "person") {
			t.Errorf("a session without hot seats took %q", c)
		}
	}
}

// At a LAN table this program joined (not its creator's), a second
// person here is listed like the first, each under their own ID and as
// "you", and + (to seat one more) is offered to a guest too: the golden
// pins the table at 80×24. The colour key moves this program's own
// player, whoever is listed first.
func TestHotSeatLANGuestTableGolden(t *testing.T) {
	f := newFake()
	u := New(hotFake{f}, Options{Lang: "en"})
	u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWalicealiceA1", Name: "alice"}})
	tb := TableUpdate{GameID: "hotlan"}
	tb.Seats[0] = Seat{Kind: SeatHuman, Name: "p0", PeerID: "12D3KooWhostp0hostQ1", Present: true, Ready: true}
	tb.Seats[1] = Seat{Kind: SeatHuman, Name: "bob", PeerID: "12D3KooWbobbobQ9x8y7", You: true, Present: true}
	tb.Seats[2] = Seat{Kind: SeatHuman, Name: "alice", PeerID: "12D3KooWalicealiceA1", You: true, Present: true}
	tb.Seats[3] = Seat{Kind: SeatOpen}
	u.Apply(tb)
	screen := render(t, u, 80, 24)
	checkGolden(t, "hotseat-lan-table-80x24", screen)
	for _, want := range []string{"B bob", "Y alice", "+ add a person"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the guest's table lacks %q:\n%s", want, screen)
		}
	}
	if got := u.mySeat(); got != engine.Yellow {
		t.Errorf("this program's own seat is %s, want alice's (Yellow), not bob's", got)
	}
	u.HandleKey(ch('+'))
	typeText(u, "cat")
	u.HandleKey(key(tcell.KeyEnter))
	if got := strings.Join(f.took(), "|"); got != "person cat" {
		t.Errorf("commands %q, want person cat (a guest may seat a person too)", got)
	}
}
