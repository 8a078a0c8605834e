package session

import (
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lobby"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// The seats of this program's people are marked as theirs (You) at the
// table, the program's own too; anyone else's, a bot's or an open seat
// is not, whatever its ID says.
func TestMarkOurs(t *testing.T) {
	self, _ := newID(t)
	bea, _ := newID(t)
	cat, _ := newID(t)
	other, _ := newID(t)
	s := &NetSession{self: self, people: []netPerson{{name: "Bea", id: bea}}, hot: []*hotSeat{{id: cat}}}
	var tb ui.TableUpdate
	tb.Seats[0] = ui.Seat{Kind: ui.SeatHuman, Name: "Ann", PeerID: self.String()}
	tb.Seats[1] = ui.Seat{Kind: ui.SeatHuman, Name: "Bea", PeerID: bea.String()}
	tb.Seats[2] = ui.Seat{Kind: ui.SeatHuman, Name: "Dan", PeerID: other.String()}
	tb.Seats[3] = ui.Seat{Kind: ui.SeatBot, Name: "random", PeerID: bea.String()}
	s.markOurs(&tb)
	for c, want := range []bool{true, true, false, false} {
		if tb.Seats[c].You != want {
			t.Errorf("%s (%s): You=%v, want %v", engine.Colour(c), tb.Seats[c].Name, tb.Seats[c].You, want)
		}
	}
	tb.Seats[2] = ui.Seat{Kind: ui.SeatHuman, Name: "Cat", PeerID: cat.String()}
	s.markOurs(&tb)
	if !tb.Seats[2].You {
		t.Error("a person's seat of the game on (a resumed game's) is not marked as ours")
	}
	if s.ours(peer.ID("")) {
		t.Error("an empty ID is ours")
	}
}

// AddPerson at a LAN table refuses what makes no sense: away from any
// table, a name already playing here or at the table (any case), an
// empty or control-character name, and more people than seats; a
// person's seat key is theirs for good (the same ID when they come
// back). NewNet refuses --person names that clash.
func TestNetAddPersonRefusals(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	_, key := newID(t)
	if _, err := NewNet(NetOptions{Name: "Ann", DataDir: t.TempDir(), Key: key, NoDiscovery: true, People: []string{"ann"}}); err == nil {
		t.Error("NewNet seated a person named as its own player")
	}
	a := newNetTestOpts(t, "Ann", true)
	if err := a.AddPerson("Bea"); err == nil || !strings.Contains(err.Error(), "Create a game first") {
		t.Errorf("AddPerson away from a table: %v", err)
	}
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "ANN", "\x01\x02"} {
		if err := a.AddPerson(bad); err == nil {
			t.Errorf("AddPerson(%q) accepted", bad)
		}
	}
	var ids []peer.ID
	for _, name := range []string{"Bea", "Cat", "Dan"} {
		if err := a.AddPerson(name); err != nil {
			t.Fatalf("AddPerson(%s): %v", name, err)
		}
		a.mu.Lock()
		ids = append(ids, a.people[len(a.people)-1].id)
		a.mu.Unlock()
	}
	if err := a.AddPerson("bea"); err == nil {
		t.Error("a second Bea was seated")
	}
	if err := a.AddPerson("Eve"); err == nil {
		t.Error("a fifth person at a table of four was seated")
	}
	beaKey, err := a.dir.SeatKey("Bea")
	if err != nil || !peerOf(beaKey, ids[0]) {
		t.Errorf("Bea's seat key is not the one she sat with: %v", err)
	}
	if ids[0] == a.ID() || ids[0] == ids[1] {
		t.Error("two seats share an ID")
	}
}

// The browsers this program serves see its people as people, not as web
// players: a person hosted here carries no phone mark, a browser does.
func TestWebTableOfMarksPeople(t *testing.T) {
	self, _ := newID(t)
	bea, _ := newID(t)
	wendy, _ := newID(t)
	s := &NetSession{self: self, people: []netPerson{{name: "Bea", id: bea}}}
	v := lobby.View{Lobby: "t", Players: []lobby.Player{
		{ID: self, Name: "Ann", Colour: engine.Red},
		{ID: bea, Name: "Bea", Colour: engine.Blue, Via: self},
		{ID: wendy, Name: "Wendy", Colour: engine.Yellow, Via: self, Phone: true},
	}}
	got := map[string]bool{}
	for _, p := range s.webTableOf(v).Players {
		got[p.Name] = p.Web
	}
	if got["Ann"] || got["Bea"] || !got["Wendy"] {
		t.Errorf("web marks %v, want Wendy's alone", got)
	}
}
