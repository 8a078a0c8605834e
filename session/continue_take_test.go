package session

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A game in which carol took a bot's seat, then stopped unfinished, is
// offered to continue on both sides with carol in her seat: carol's
// lobby lists it from her game-take-….log (her seat and the secret
// beside that log) while a player of it is on the LAN, and refuses her
// stale take log of a seat never given, saying why; the players' lobby
// lists it while carol alone of them is on the LAN, naming her among its
// players in place of the bot. Continued, each side waits for every
// other holder of a seat, carol among them (continueWant).
func TestContinueTakenSeat(t *testing.T) {
	recs, setup, v := lockstepLog(t, "takeseat.log")
	var carol peer.ID
	for _, o := range v.Seats {
		if o.From > 0 {
			carol = o.Player
		}
	}
	players := setup.Players()
	names := map[peer.ID]string{players[0]: "ann", players[1]: "bob", carol: "carol"}
	mid := recs[:2*len(recs)/3]
	// write(dir.Create…(…))(recs) writes recs as the log just created.
	write := func(g *savegame.Game, err error) func([]lockstep.Record) string {
		if err != nil {
			t.Fatal(err)
		}
		return func(recs []lockstep.Record) string {
			if err := g.Log.Write(recs); err != nil {
				t.Fatal(err)
			}
			if err := g.Log.Close(); err != nil {
				t.Fatal(err)
			}
			return g.Log.Path()
		}
	}
	open := func() *savegame.Dir {
		d, err := savegame.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	wantPlayers := func(side string, got []string) {
		t.Helper()
		want := []string{"ann", "bob", "carol"}
		if len(players) > 2 {
			t.Fatalf("the golden takeseat.log has %d players, the test names 2", len(players))
		}
		if s := slices.Sorted(slices.Values(got)); !slices.Equal(s, want) {
			t.Errorf("%s: offered with players %q, want %q (carol in the bot's seat)", side, got, want)
		}
	}

	// Carol's side: her take log, and a stale one of a seat never given.
	cd := open()
	var logged bytes.Buffer
	write(cd.CreateTaken(setup, time.Now().Add(-time.Hour)))(recs[:4])
	path := write(cd.CreateTaken(setup, time.Now()))(mid)
	if err := cd.SaveNamesBeside(path, setup, names, carol); err != nil {
		t.Fatal(err)
	}
	cs := &NetSession{dir: cd, self: carol, name: "carol", log: slog.New(slog.NewTextHandler(&logged, nil))}
	cs.findPaused()
	if len(cs.paused) != 1 || cs.paused[0].Path != path || cs.paused[0].Take == nil {
		t.Fatalf("carol's games to continue: %+v, want her seat from %s", cs.paused, path)
	}
	if !strings.Contains(logged.String(), "holds no seat it took") {
		t.Errorf("the stale take log was not refused saying why; logged:\n%s", logged.String())
	}
	if got := cs.continuable(nil); len(got) != 0 {
		t.Errorf("offered with nobody else on the LAN: %+v", got)
	}
	// Continued, each side waits for the others holding a seat: carol
	// for both players, they for each other and carol.
	wantWait := func(side string, got []peer.ID, want ...peer.ID) {
		t.Helper()
		if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
			t.Errorf("%s continued waits for %q, want %q", side, got, want)
		}
	}
	wantWait("carol's game", continueWant(cs.paused[0], carol, nil), players[0], players[1])
	got := cs.continuable([]p2p.Advert{{ID: players[1]}})
	if len(got) != 1 || got[0].Lobby != setup.Name {
		t.Fatalf("carol is offered %+v with bob on the LAN, want the game", got)
	}
	wantPlayers("carol's lobby", got[0].Players)

	// A player's side: the game's own log, carol named beside it.
	ad := open()
	path = write(ad.Create(setup, players[0], nil))(mid)
	if err := ad.SaveNamesBeside(path, setup, names, carol); err != nil {
		t.Fatal(err)
	}
	as := &NetSession{dir: ad, self: players[0], name: "ann", log: slog.New(slog.DiscardHandler)}
	as.findPaused()
	if len(as.paused) != 1 || !slices.Contains(as.paused[0].Members(), carol) {
		t.Fatalf("ann's games to continue: %+v, want the game with carol a member", as.paused)
	}
	wantWait("ann's game", continueWant(as.paused[0], players[0], nil), players[1], carol)
	wantWait("ann's game with bob here", continueWant(as.paused[0], players[0], players[1:]), carol)
	got = as.continuable([]p2p.Advert{{ID: carol}})
	if len(got) != 1 {
		t.Fatalf("ann is offered %+v with carol alone on the LAN, want the game", got)
	}
	wantPlayers("ann's lobby", got[0].Players)
}
