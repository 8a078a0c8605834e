package client

import (
	"reflect"
	"testing"

	"aeroplane/engine"
	"aeroplane/lockstep"
)

// Every event a person sees becomes one line of the page's log, with the
// colour's letter and the square named as the terminal names it; the
// node's bookkeeping becomes none.
func TestEventLines(t *testing.T) {
	moved := func(c engine.Colour, kind engine.MoveKind, to engine.Place) lockstep.Event {
		return lockstep.Event{Kind: lockstep.EventMoved, Colour: c, Value: 5,
			Move: engine.Move{Kind: kind, Colour: c}, Result: engine.Result{To: to}}
	}
	tests := []struct {
		name string
		ev   lockstep.Event
		want []EventLine
	}{
		{"started", lockstep.Event{Kind: lockstep.EventGameStarted, Colour: engine.Blue}, []EventLine{{Key: "started", Colour: "B"}}},
		{"rolled", lockstep.Event{Kind: lockstep.EventRolled, Roll: 3, Colour: engine.Red, Value: 6}, []EventLine{{Key: "rolled", Colour: "R", Args: []string{"6"}, Roll: 3}}},
		{"bad face", lockstep.Event{Kind: lockstep.EventRolled, Colour: engine.Red, Value: 7}, nil},
		{"moved red", moved(engine.Red, engine.PlaneMove, 12), []EventLine{{Key: "moved", Colour: "R", Args: []string{"12"}}}},
		{"moved blue absolute", moved(engine.Blue, engine.PlaneMove, 12), []EventLine{{Key: "moved", Colour: "B", Args: []string{"25"}}}},
		{"home column", moved(engine.Yellow, engine.PlaneMove, engine.HomeFirst), []EventLine{{Key: "moved", Colour: "Y", Args: []string{"y1"}}}},
		{"taxi", moved(engine.Green, engine.PlaneMove, engine.Launch), []EventLine{{Key: "taxi", Colour: "G"}}},
		{"home", moved(engine.Green, engine.PlaneMove, engine.Finished), []EventLine{{Key: "home", Colour: "G"}}},
		{"pass", moved(engine.Red, engine.Pass, 0), []EventLine{{Key: "pass", Colour: "R", Args: []string{"5"}}}},
		{"penalty", moved(engine.Red, engine.Penalty, 0), []EventLine{{Key: "penalty", Colour: "R"}}},
		{"turn", lockstep.Event{Kind: lockstep.EventTurnPassed, Colour: engine.Yellow}, []EventLine{{Key: "turn", Colour: "Y"}}},
		{"absent", lockstep.Event{Kind: lockstep.EventAbsent, Colour: engine.Blue}, []EventLine{{Key: "absent", Colour: "B"}}},
		{"back", lockstep.Event{Kind: lockstep.EventReturned, Colour: engine.Blue}, []EventLine{{Key: "back", Colour: "B"}}},
		{"left", lockstep.Event{Kind: lockstep.EventLeft, Colour: engine.Green}, []EventLine{{Key: "left", Colour: "G"}}},
		{"over", lockstep.Event{Kind: lockstep.EventGameOver, Ranking: []engine.Colour{engine.Yellow, engine.Red}}, []EventLine{{Key: "over", Args: []string{"Y", "R"}}}},
		{"waiting", lockstep.Event{Kind: lockstep.EventWaiting}, nil},
		{"your roll", lockstep.Event{Kind: lockstep.EventYourRoll}, nil},
		{"no colour", lockstep.Event{Kind: lockstep.EventTurnPassed, Colour: engine.NoColour}, []EventLine{{Key: "turn"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := EventLines([]lockstep.Event{tc.ev}); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("EventLines(%s) = %+v, want %+v", tc.ev, got, tc.want)
			}
		})
	}
	// Order is kept, the unseen dropped.
	got := EventLines([]lockstep.Event{tests[1].ev, {Kind: lockstep.EventWaiting}, tests[3].ev})
	if len(got) != 2 || got[0].Key != "rolled" || got[1].Key != "moved" {
		t.Errorf("a roll, a wait and a move: %+v", got)
	}
}
