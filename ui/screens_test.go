package ui

import (
	"testing"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// TestScreensGolden pins the screens around the board: the lobby, the
// seats, help and the rules in another language.
func TestScreensGolden(t *testing.T) {
	cases := []struct {
		name  string
		setup func() *UI
	}{
		{"lobby", func() *UI { u, _ := lobbyUI(); return u }},
		// A game and a player only an mDNS advert names, not yet proven
		// by a connection, beside a proven one.
		{"lobby-unverified", func() *UI {
			u := New(newFake(), Options{Lang: "en"})
			ghost := Peer{ID: "12D3KooWghostGh0st11", Name: "bob", Addr: "/ip4/10.0.0.9/tcp/4001/p2p/12D3KooWghostGh0st11", Unverified: true}
			carol := Peer{ID: "12D3KooWcarolCar0l22", Name: "carol", Addr: "/ip4/10.0.0.3/tcp/4001/p2p/12D3KooWcarolCar0l22"}
			u.Apply(LobbyUpdate{
				Me:      Peer{ID: "me", Name: "alice", Addr: "/ip4/10.0.0.1/tcp/4001"},
				Games:   []Game{{ID: "g-bob", Host: ghost, Taken: 1, Seats: 2}, {ID: "g-carol", Host: carol, Taken: 1, Seats: 2}},
				Players: []Peer{ghost, carol},
			})
			return u
		}},
		{"table", func() *UI {
			u, _ := lobbyUI()
			tb := table4(false)
			tb.Seats[3] = Seat{}
			u.Apply(tb)
			u.Apply(ChatLine{From: "bob", Colour: engine.Yellow, Text: "ready when you are"})
			return u
		}},
		{"help", func() *UI {
			u, _ := choosingUI(t)
			u.HandleKey(ch('?'))
			return u
		}},
		{"rules-el", func() *UI {
			f := newFake()
			u := New(f, Options{Lang: "el", Rules: engine.Rules{Takeoff: engine.TakeoffSix, FlyJump: true}})
			u.HandleKey(ch('i'))
			return u
		}},
		{"help-legend", func() *UI {
			u, _ := choosingUI(t)
			u.HandleKey(ch('?'))
			u.HandleKey(key(tcell.KeyPgDn))
			return u
		}},
		{"help-legend-zh", func() *UI {
			u, _ := choosingUI(t)
			langUI(u, "zh")
			u.HandleKey(ch('?'))
			u.HandleKey(key(tcell.KeyPgDn))
			return u
		}},
		{"help-zh", func() *UI { u, _ := choosingUI(t); langUI(u, "zh"); u.HandleKey(ch('?')); return u }},
		{"help-hi", func() *UI { u, _ := choosingUI(t); langUI(u, "hi"); u.HandleKey(ch('?')); return u }},
		{"help-el", func() *UI { u, _ := choosingUI(t); langUI(u, "el"); u.HandleKey(ch('?')); return u }},
		{"help-it", func() *UI { u, _ := choosingUI(t); langUI(u, "it"); u.HandleKey(ch('?')); return u }},
		{"help-pt", func() *UI { u, _ := choosingUI(t); langUI(u, "pt"); u.HandleKey(ch('?')); return u }},
		{"help-ru", func() *UI { u, _ := choosingUI(t); langUI(u, "ru"); u.HandleKey(ch('?')); return u }},
		{"chat-typing", func() *UI {
			u, _ := choosingUI(t)
			u.HandleKey(ch('t'))
			typeText(u, "nice jump")
			return u
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkGolden(t, c.name+"-80x24", render(t, c.setup(), 80, 24))
		})
	}
}
