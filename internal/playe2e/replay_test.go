package playe2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"os"
)

// `aeroplane replay LOG` in a terminal steps through a real game with
// keys: → goes a roll on, g 10 Enter to roll 10, End to the last roll,
// q leaves with status 0 and the terminal restored.
func TestReplayInTerminal(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	log, err := filepath.Abs("../../lockstep/testdata/game.log")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, exec.Command, playerEnv(t.TempDir()), binary(), "replay", "--lang", "en", log)
	tm.waitFor("the replay's start", 100, contains(fmt.Sprintf("roll 0 of %d", v.Rolls), "next roll", "The game begins."))
	tm.keys("Right", "Right", "Right")
	tm.waitFor("roll 3", 100, contains(fmt.Sprintf("roll 3 of %d", v.Rolls)))
	tm.keys("g", "1", "0", "Enter")
	tm.waitFor("roll 10", 100, contains(fmt.Sprintf("roll 10 of %d", v.Rolls)))
	tm.keys("End")
	tm.waitFor("the last roll", 100, contains(fmt.Sprintf("roll %d of %d", v.Rolls, v.Rolls), "The game is over."))
	tm.quitAndCheck()
}
