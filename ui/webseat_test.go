package ui

import (
	"strings"
	"testing"

	"aeroplane/engine"
)

// The terminal's table marks a web player (a person whose node runs in
// a browser a program at the table serves) as on a phone, at the table
// and beside the board in the game, in the player's language; the other
// people carry no mark.
func TestWebSeatMarkGolden(t *testing.T) {
	for _, c := range []struct {
		name    string
		lang    string
		started bool
		mark    string
	}{
		{"webseat-table", "en", false, "wendy WeNd42 (phone)"},
		{"webseat-table-zh", "zh", false, "wendy WeNd42 (手机)"},
		{"webseat-game", "en", true, "wendy WeNd42 (phone)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := New(newFake(), Options{Lang: c.lang})
			u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice"}})
			tb := table4(c.started)
			tb.Seats[2] = Seat{Kind: SeatHuman, Name: "wendy", PeerID: "12D3KooWqrstuvWeNd42", Present: true, Ready: true, Web: true}
			u.Apply(tb)
			if c.started {
				u.Apply(GameStarted{Position: mustPos(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -"), Rules: engine.DefaultRules()})
			}
			got := render(t, u, 80, 24)
			if !strings.Contains(got, c.mark) || strings.Count(got, "("+u.t("table.phone")+")") != 1 {
				t.Errorf("the screen does not mark wendy alone as on a phone (%q):\n%s", c.mark, got)
			}
			checkGolden(t, c.name+"-80x24", got)
		})
	}
}
