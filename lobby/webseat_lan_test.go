package lobby

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/testkit"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Web players sit at the table through the programs serving them: Arno's
// program seats Wendy and the creator's seats Wilma, each under the
// person's own peer ID and name; a program that speaks for a seat it
// does not serve (Arno readying Wilma, by hand-made message and through
// its control) changes nothing; the seats' ready and colour are said by
// their programs, and the start names each seat's program
// (Result.SeatHosts) to every player, Wendy and Wilma in the Setup.
func TestLobbySeatsWebPlayers(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := newSeatedLobbyOf(t, ctx, 2, 4)
	wendy, wilma := testkit.ID(40), testkit.ID(41)
	// Wendy is a browser Arno's program serves; Wilma a person at the
	// creator's keyboard (hot seat): only Wendy is marked a phone.
	if err := s.ctl[1].SeatVia(wendy, "Wendy", true); err != nil {
		t.Fatal(err)
	}
	if err := s.ctl[0].SeatVia(wilma, "Wilma", false); err != nil {
		t.Fatal(err)
	}
	full := func(v View) bool {
		w, ok1 := player(v, wendy)
		m, ok2 := player(v, wilma)
		return ok1 && ok2 && w.Via == s.id(1) && w.Name == "Wendy" && m.Via == s.id(0) && m.Name == "Wilma" && w.Phone && !m.Phone
	}
	v := s.wait(0, "both web players seated", full)
	s.wait(1, "both web players seated", full)
	if len(v.Players) != 4 || v.Free != 0 {
		t.Fatalf("table %+v", v)
	}

	// Arno speaks for Wilma, whom the creator serves.
	if err := s.ctl[1].ReadyVia(wilma, true); !errors.Is(err, ErrNotSeated) {
		t.Fatalf("Arno's control readied Wilma: %v", err)
	}
	forged := encodeLobbyMsg(lobbyMsg{T: lobbyReady, Lobby: "seats", Ready: true, Ver: s.version(v), Seat: wilma.String()})
	if err := s.trs[1].Send(s.id(0), p2p.KindLobby, forged); err != nil {
		t.Fatal(err)
	}
	wilmaAt := s.colourOfID(v, wilma)
	// Wendy asks for Wilma's colour: Wilma holds it, Wendy keeps hers.
	if err := s.ctl[1].ColourVia(wendy, wilmaAt); !errors.Is(err, ErrSeatTaken) {
		t.Fatalf("Wendy asked for Wilma's seat: %v", err)
	}
	for _, step := range []func() error{
		func() error { return s.ctl[1].SetReady(true) }, // after the forged ready: the creator took that first
		func() error { return s.ctl[1].ReadyVia(wendy, true) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	readyOf := func(v View, id peer.ID) bool { p, _ := player(v, id); return p.Ready }
	v = s.wait(0, "Arno and Wendy ready", func(v View) bool { return readyOf(v, s.id(1)) && readyOf(v, wendy) })
	if readyOf(v, wilma) || s.colourOfID(v, wilma) != wilmaAt {
		t.Fatalf("Arno's forged ready for Wilma was taken: %+v", v.Players)
	}
	if err := s.ctl[0].ReadyVia(wilma, true); err != nil {
		t.Fatal(err)
	}
	s.wait(0, "Wilma ready", func(v View) bool { return readyOf(v, wilma) })
	if err := s.ctl[0].Start(); err != nil {
		t.Fatal(err)
	}
	s.wg.Wait()
	want := map[peer.ID]peer.ID{wendy: s.id(1), wilma: s.id(0)}
	for i := range 2 {
		r := s.res[i]
		if s.errs[i] != nil || !maps.Equal(r.SeatHosts, want) || r.Names[wendy] != "Wendy" || r.Names[wilma] != "Wilma" {
			t.Fatalf("peer %d's result: %v, hosts %v, names %v", i, s.errs[i], r.SeatHosts, r.Names)
		}
		if !maps.Equal(r.Phones, map[peer.ID]bool{wendy: true}) {
			t.Fatalf("peer %d's result marks phones %v, want Wendy alone", i, r.Phones)
		}
		if len(r.Setup.Players()) != 4 {
			t.Fatalf("peer %d's setup seats %v", i, r.Setup.Players())
		}
	}
	if s.res[0].Setup.GameID() != s.res[1].Setup.GameID() {
		t.Fatal("two setups")
	}
}

func (s *seatedLobby) colourOfID(v View, id peer.ID) engine.Colour {
	p, _ := player(v, id)
	return p.Colour
}

// version is the table version peer 0's lobby last said (its creator's).
func (s *seatedLobby) version(View) uint32 {
	var ver uint32
	_ = s.ctl[0].do(func(l *runner) error { ver = l.table.Version(); return nil })
	return ver
}
