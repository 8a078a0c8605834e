package lobby

import (
	"slices"
	"testing"

	"aeroplane/engine"

	"pgregory.net/rapid"
)

// Whatever guests and the creator ask, in any order, the table keeps its
// invariants: the creator first, no colour held twice, no more members
// than player seats, at most four seats, and a refused request changes
// nothing (not even the version).
func TestTableInvariants(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		players := rapid.IntRange(1, 4).Draw(rt, "players")
		nb := rapid.IntRange(0, 4-players).Draw(rt, "bots")
		if players+nb < 2 {
			nb = 1
		}
		tb, err := New(TableConfig{Creator: member(0), Players: players, Bots: LayoutBots(players, nb, "random", nil),
			ManualReady: rapid.Bool().Draw(rt, "manual")})
		if err != nil {
			rt.Fatal(err)
		}
		kinds := append([]string{"", "nosuch"}, engine.BotKinds()...)
		for i, n := 0, rapid.IntRange(1, 60).Draw(rt, "ops"); i < n; i++ {
			who := ids[rapid.IntRange(0, len(ids)-1).Draw(rt, "who")]
			c := engine.Colour(rapid.IntRange(0, 5).Draw(rt, "colour"))
			before := snapshot(tb)
			var err error
			switch rapid.IntRange(0, 8).Draw(rt, "op") {
			case 0:
				_, _, err = tb.Join(who, "p", []engine.Colour{c})
			case 1:
				tb.Leave(who)
			case 2:
				err = tb.SetColour(who, c)
			case 3:
				tb.SetReady(who, rapid.Bool().Draw(rt, "ready"), tb.Version()-uint32(rapid.IntRange(0, 1).Draw(rt, "stale")))
			case 4:
				err = tb.SetSeat(c, rapid.SampledFrom(kinds).Draw(rt, "kind"))
			case 5:
				r := engine.DefaultRules()
				r.FlyJump = rapid.Bool().Draw(rt, "flyjump")
				tb.SetRules(r)
			case 6:
				err = tb.Remove(ids[rapid.IntRange(0, 1).Draw(rt, "by")], who)
			case 7:
				err = tb.StartNow()
			case 8:
				via := ids[rapid.IntRange(0, len(ids)-1).Draw(rt, "via")]
				_, _, err = tb.JoinVia(who, via, "w", []engine.Colour{c})
			}
			if err != nil && snapshot(tb).version != before.version {
				rt.Fatalf("a refused request (%v) changed the version", err)
			}
			check(rt, tb)
			if tb.MayStart() {
				if _, err := tb.Setup("prop", [16]byte{}); err != nil {
					rt.Fatalf("a table that may start builds no setup: %v", err)
				}
			}
		}
	})
}

type tableSnap struct{ version uint32 }

func snapshot(tb *Table) tableSnap { return tableSnap{tb.Version()} }

func check(rt *rapid.T, tb *Table) {
	ms := tb.Members()
	if len(ms) == 0 || ms[0].ID != ids[0] {
		rt.Fatalf("the creator is not first: %+v", ms)
	}
	held := map[engine.Colour]int{}
	for _, m := range ms {
		if m.Via != "" {
			// A hosted seat's program sits at the table in its own right.
			if _, ok := tb.Seated(m.Via); !ok || m.Via == m.ID || slices.ContainsFunc(ms, func(o Member) bool { return o.ID == m.Via && o.Via != "" }) {
				rt.Fatalf("seat %s hosted by %s, which does not sit here by itself: %+v", m.ID, m.Via, ms)
			}
		}
		if m.Colour >= engine.NumColours {
			rt.Fatalf("member at colour %d", m.Colour)
		}
		held[m.Colour]++
	}
	bots := tb.Bots()
	for c, k := range bots {
		if k != "" {
			held[engine.Colour(c)]++
			if !ValidBotKind(k) {
				rt.Fatalf("bot kind %q seated", k)
			}
		}
	}
	for c, n := range held {
		if n > 1 {
			rt.Fatalf("colour %v held %d times: members %+v bots %v", c, n, ms, bots)
		}
	}
	if tb.Free() < 0 || len(ms)+tb.Free()+countBots(bots) > engine.NumColours {
		rt.Fatalf("%d members, %d free, %d bots: more than four seats", len(ms), tb.Free(), countBots(bots))
	}
	if len(tb.Open()) != tb.Free() {
		rt.Fatalf("open colours %v for %d free seats", tb.Open(), tb.Free())
	}
}
