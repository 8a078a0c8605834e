package savegame_test

import (
	"fmt"
	"os"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/savegame"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// A game is created when its lobby starts it, written as it is played,
// and found again by a restarted program.
func Example() {
	tmp, _ := os.MkdirTemp("", "savegame-example")
	defer os.RemoveAll(tmp)
	d, err := savegame.Open(tmp + "/games") // created 0700
	if err != nil {
		fmt.Println(err)
		return
	}
	key, _, _ := crypto.GenerateEd25519Key(nil)
	self, _ := peer.IDFromPrivateKey(key)
	setup := lockstep.Setup{Version: lockstep.Version, Name: "friday", Rules: engine.DefaultRules(),
		Seats: []lockstep.Seat{{Colour: engine.Red, Player: self}, {Colour: engine.Blue, Bot: "greedy"}}}

	g, err := d.Create(setup, self, nil) // the secret (0600), then the log
	if err != nil {
		fmt.Println(err)
		return
	}
	n, _ := lockstep.NewNode(lockstep.Config{Setup: setup, Self: self, Key: key, Entropy: g.Entropy, AutoRoll: true})
	rd := n.Ready()
	_ = g.Log.Write(rd.LogEntries) // before rd.Messages leave
	_ = g.Log.Sync()               // lazily: once a tick, and at once for the Setup
	g.Log.Close()                  // ... the program is killed here

	s, _ := d.Find(savegame.Query{Self: self, Now: time.Now()})
	fmt.Println("resume", s.Setup.Name, s.Entropy == g.Entropy)
	_, err = d.Create(setup, self, nil)
	fmt.Println("create again:", err != nil)
	// Output:
	// resume friday true
	// create again: true
}
