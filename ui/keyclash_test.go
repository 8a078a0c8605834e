package ui

import (
	"testing"
	"time"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
	"pgregory.net/rapid"
)

// everySession can do everything a session may offer, so every binding
// of the key table can be active.
type everySession struct{ *fakeSession }

func (e everySession) ChooseColour(c engine.Colour) error   { return e.rec("colour") }
func (e everySession) SetReady(bool) error                  { return e.rec("ready") }
func (e everySession) Leave() error                         { return e.rec("leave") }
func (e everySession) GoOn() error                          { return e.rec("goon") }
func (e everySession) EndGame() error                       { return e.rec("endgame") }
func (e everySession) RemoveSeat(engine.Colour) error       { return e.rec("remove") }
func (e everySession) SetSetupBot(bool) error               { return e.rec("setupbot") }
func (e everySession) SetBotPace(time.Duration, bool) error { return e.rec("pace") }
func (e everySession) AddPerson(string) error               { return e.rec("person") }

// TestNoTwoActiveKeysShareARune: in any state a player can reach (the
// lobby with running games and games to continue, the creator's table,
// a game, the leave question, the lone player's question), no rune
// answers two bindings at once: p is the bots' pace at the table and the
// pause in the leave question, never both.
func TestNoTwoActiveKeysShareARune(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		u, f := choosingUI(rt)
		switch rapid.IntRange(0, 3).Draw(rt, "state") {
		case 1:
			u, f = lobbyUI()
			u.Apply(LobbyUpdate{Me: Peer{ID: "me", Name: "alice", Addr: "/ip4/10.0.0.1/tcp/4001"},
				Games:    []Game{{ID: "g-bob", Host: Peer{Name: "bob"}}},
				Running:  []RunningGame{{Lobby: "friday", Players: []string{"ann", "bob"}, Roll: 9, Leader: engine.NoColour}},
				Continue: []SavedGame{{Lobby: "monday", Players: []string{"ann"}, Roll: 3}}})
		case 2:
			u, f = lobbyUI()
			u.Apply(table4(false))
		case 3:
			u.Apply(AloneDecision{Missing: []string{"bob"}})
		}
		u.sess = everySession{f}
		u.opts.Web = (&webPolicy{always: true}).web // the phone page's m key too
		u.syncWeb()
		u.stop = func() {}
		for i := range rapid.IntRange(0, 20).Draw(rt, "n") {
			seen := map[rune]string{}
			for j := range keyTable {
				b := &keyTable[j]
				if !b.active(u) {
					continue
				}
				for _, r := range b.runes {
					if other, ok := seen[r]; ok {
						rt.Fatalf("after %d keys: %q answers both %s and %s", i, r, other, b.help)
					}
					seen[r] = b.help
				}
			}
			u.HandleKey(ch(rapid.SampledFrom([]rune("qpynwgecbx+t?m")).Draw(rt, "rune")))
			if rapid.Bool().Draw(rt, "special") {
				u.HandleKey(key(rapid.SampledFrom([]tcell.Key{tcell.KeyEscape, tcell.KeyCtrlC, tcell.KeyEnter}).Draw(rt, "key")))
			}
		}
	})
}
