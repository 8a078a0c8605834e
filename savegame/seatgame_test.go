package savegame

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
)

// A person hosted by this program in a LAN game keeps a log and a dice
// secret of its own beside the game's, taken up again after a crash with
// the same secret and the records written; a seat of no files here (a
// web player's) is ErrNoSeat, a seat outside the game is refused, and
// Find never takes a seat's log for a game.
func TestSeatGameFiles(t *testing.T) {
	d, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "hot", Rules: engine.DefaultRules(), Nonce: [16]byte{3}}
	for i := range 3 {
		setup.Seats = append(setup.Seats, lockstep.Seat{Colour: engine.Colour(i), Player: testkit.ID(50 + i)})
	}
	bob, web := testkit.ID(51), testkit.ID(52)
	if _, err := d.CreateSeat(setup, testkit.ID(59)); err == nil {
		t.Error("files made for a seat outside the game")
	}
	g, err := d.CreateSeat(setup, bob)
	if err != nil {
		t.Fatal(err)
	}
	if g.Entropy == ([32]byte{}) {
		t.Error("a seat's entropy is zero")
	}
	rec := lockstep.Record{Type: lockstep.RecordSetup, Data: setup.Encode()}
	if err := g.Log.Write([]lockstep.Record{rec}); err != nil {
		t.Fatal(err)
	}
	if err := g.Log.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(d.seatSecretPath(setup.GameID(), bob))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the seat's secret: %v, mode %v; want 0600", err, fi)
	}
	if _, err := d.CreateSeat(setup, bob); !errors.Is(err, ErrExists) {
		t.Errorf("a seat's game created twice: %v, want ErrExists", err)
	}
	r, err := d.ResumeSeat(setup, bob)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Log.Close()
	if r.Entropy != g.Entropy || len(r.Records) != 1 {
		t.Errorf("resumed seat: entropy same %v, %d records; want the same secret and 1 record", r.Entropy == g.Entropy, len(r.Records))
	}
	if _, err := d.ResumeSeat(setup, web); !errors.Is(err, ErrNoSeat) {
		t.Errorf("a web player's seat: %v, want ErrNoSeat", err)
	}
	if !strings.HasPrefix(filepath.Base(d.SeatLogPath(setup.GameID(), bob)), "game-"+setup.GameID().String()+"-seat-") {
		t.Errorf("seat log path %s", d.SeatLogPath(setup.GameID(), bob))
	}
	if s, _ := d.Find(Query{Self: bob, Now: fi.ModTime()}); s != nil {
		t.Errorf("Find took a seat's log for a game: %s", s.Path)
	}
}
