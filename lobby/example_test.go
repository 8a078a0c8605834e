package lobby_test

import (
	"fmt"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lobby"

	"github.com/libp2p/go-libp2p/core/peer"
)

// exampleID is a fixed peer ID, so the example's output is reproducible.
func exampleID(b byte) peer.ID { return testkit.ID(int(b)) }

// The creator opens a table for two people and a bot; a friend joins,
// says ready, and the game's Setup seats both and the bot.
func Example() {
	ann, bob := exampleID(1), exampleID(2)
	t, err := lobby.New(lobby.TableConfig{Creator: lobby.Member{ID: ann, Name: "ann"}, Players: 2,
		Bots: lobby.LayoutBots(2, 1, "greedy", nil), Rules: engine.DefaultRules()})
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _, _ := t.Join(bob, "bob", nil)
	fmt.Println("bob sits at", c, "; may start:", t.MayStart())
	t.SetReady(bob, true, t.Version())
	fmt.Println("may start:", t.MayStart())
	s, _ := t.Setup("friday", [16]byte{})
	for _, seat := range s.Seats {
		who := seat.Bot
		if seat.Player == ann {
			who = "ann"
		} else if seat.Player == bob {
			who = "bob"
		}
		fmt.Println(seat.Colour, who)
	}
	// Output:
	// bob sits at Blue ; may start: false
	// may start: true
	// Red ann
	// Blue bob
	// Yellow greedy
}
