package cli

import (
	"fmt"

	"aeroplane/lockstep"
)

func init() {
	register(command{
		name:    "replay",
		usage:   "[--boards=false] FILE",
		summary: "print a verified game log turn by turn with board drawings",
		example: `--boards=false ~/.local/state/aeroplane/games/game-ID.log`,
		run:     runReplay,
	})
}

func runReplay(e *env) error {
	fs := newFlags(e, "replay")
	boards := fs.Bool("boards", true, "draw the board after every move")
	v, err := verifiedLogArg(fs, e.args)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "game %s %q: %s; rules %s\n", v.GameID, v.Setup.Name, seatsLine(v.Setup), v.Setup.Rules)
	for _, ev := range v.Events {
		switch ev.Kind {
		case lockstep.EventGameStarted:
			fmt.Fprintf(e.stdout, "\nthe dice chose %s to start\n", ev.Colour)
		case lockstep.EventMoved:
			fmt.Fprintf(e.stdout, "\nroll %d: %s rolls %d and plays %s%s\n", ev.Roll, ev.Colour, ev.Value, ev.Move, describe(ev.Result))
			if *boards {
				fmt.Fprint(e.stdout, ev.Pos.Board())
			}
		case lockstep.EventAbsent, lockstep.EventReturned, lockstep.EventCheating, lockstep.EventStateMismatch, lockstep.EventHalted:
			fmt.Fprintf(e.stdout, "\n%s\n", ev)
		case lockstep.EventGameOver:
			fmt.Fprintf(e.stdout, "\ngame over: %s\n", rankingLine(ev.Ranking))
		}
	}
	return nil
}
