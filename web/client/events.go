package client

import (
	"strconv"

	"aeroplane/engine"
	"aeroplane/lockstep"
)

// EventLine is one line of the page's event log: Key names its message
// in the page's events catalogue (app.js), Colour is the letter of the
// colour it is about ("" for none; the message says it as {c}), and Args
// fill the message's {0}, {1}… (for "over", the ranking's letters).
// Roll is a roll's index (set on "rolled" only): a roll the node undid
// and reports again after a rollback is the same roll, counted once.
type EventLine struct {
	Key    string   `json:"key"`
	Colour string   `json:"colour,omitempty"`
	Args   []string `json:"args,omitempty"`
	Roll   uint64   `json:"roll,omitempty"`
}

// EventLines are the lines the page's event log shows for a Ready's
// events, in order; the events a person does not see (waiting, votes,
// the node's own bookkeeping) have none. Squares are named as the
// terminal names them (engine.Place.Name).
func EventLines(evs []lockstep.Event) []EventLine {
	var out []EventLine
	for _, e := range evs {
		if l, ok := eventLine(e); ok {
			out = append(out, l)
		}
	}
	return out
}

func eventLine(e lockstep.Event) (EventLine, bool) {
	c := letter(e.Colour)
	switch e.Kind {
	case lockstep.EventGameStarted:
		return EventLine{Key: "started", Colour: c}, true
	case lockstep.EventRolled:
		if e.Value < 1 || e.Value > 6 {
			return EventLine{}, false
		}
		return EventLine{Key: "rolled", Colour: c, Args: []string{strconv.Itoa(e.Value)}, Roll: e.Roll}, true
	case lockstep.EventMoved:
		return movedLine(e, c), true
	case lockstep.EventTurnPassed:
		return EventLine{Key: "turn", Colour: c}, true
	case lockstep.EventAbsent:
		return EventLine{Key: "absent", Colour: c}, true
	case lockstep.EventReturned:
		return EventLine{Key: "back", Colour: c}, true
	case lockstep.EventLeft:
		return EventLine{Key: "left", Colour: c}, true
	case lockstep.EventGameOver:
		rank := make([]string, 0, len(e.Ranking))
		for _, r := range e.Ranking {
			if l := letter(r); l != "" {
				rank = append(rank, l)
			}
		}
		return EventLine{Key: "over", Args: rank}, true
	}
	return EventLine{}, false
}

// movedLine tells a move: a pass, a third six's penalty, a plane taxied
// out, one home at the centre, or one moved to a square by its name.
func movedLine(e lockstep.Event, c string) EventLine {
	switch e.Move.Kind {
	case engine.Pass:
		return EventLine{Key: "pass", Colour: c, Args: []string{strconv.Itoa(e.Value)}}
	case engine.Penalty:
		return EventLine{Key: "penalty", Colour: c}
	}
	switch to := e.Result.To; to {
	case engine.Launch:
		return EventLine{Key: "taxi", Colour: c}
	case engine.Finished:
		return EventLine{Key: "home", Colour: c}
	default:
		return EventLine{Key: "moved", Colour: c, Args: []string{to.Name(e.Colour)}}
	}
}

// letter is the colour's letter, "" for none.
func letter(c engine.Colour) string {
	if c >= engine.NumColours {
		return ""
	}
	return string(c.Letter())
}
