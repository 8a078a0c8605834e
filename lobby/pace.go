package lobby

import (
	"fmt"
	"time"
)

// Pace is the bots' pace at a table: how long every player's screen
// waits before it shows a roll of a seat a bot flies, so that people can
// follow the bots' turns (the protocol plays them at once). It is no part
// of the game's rules or its Setup, only of how the game is shown. The
// creator sets it; the zero Pace (not Set) leaves each player to its own
// setting (--bot-delay).
type Pace struct {
	Set   bool
	Delay time.Duration // whole milliseconds, 0 to MaxBotPace
}

// MaxBotPace bounds a table's bots' pace.
const MaxBotPace = 5 * time.Second

func (p Pace) valid() bool {
	return !p.Set && p.Delay == 0 || p.Set && p.Delay >= 0 && p.Delay <= MaxBotPace && p.Delay%time.Millisecond == 0
}

// wire is p in a lobby message: 0 (the field left out) when not set,
// else milliseconds plus one.
func (p Pace) wire() int {
	if !p.Set {
		return 0
	}
	return int(p.Delay/time.Millisecond) + 1
}

// paceOf is the pace a lobby message's field says; decodeLobbyMsg has
// checked it.
func paceOf(w int) Pace {
	if w <= 0 {
		return Pace{}
	}
	return Pace{Set: true, Delay: time.Duration(w-1) * time.Millisecond}
}

const maxPaceWire = int(MaxBotPace/time.Millisecond) + 1

func (p Pace) check() error {
	if !p.valid() {
		return fmt.Errorf("lobby: a bots' pace is whole milliseconds from 0 to %v: not %v", MaxBotPace, p.Delay)
	}
	return nil
}
