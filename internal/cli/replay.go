package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"aeroplane/lockstep"
	"aeroplane/savegame"
	"aeroplane/session"
	"aeroplane/ui"
	"aeroplane/ui/i18n"

	"github.com/libp2p/go-libp2p/core/peer"
)

func init() {
	register(command{
		name:    "replay",
		usage:   "[--print] [--boards=false] [--lang CODE] FILE",
		summary: "step through a verified game log in the terminal (← → roll by roll, g to go to a roll); --print, or output that is no terminal, prints it turn by turn",
		example: `--print --boards=false ~/.local/state/aeroplane/games/game-ID.log`,
		run:     runReplay,
	})
}

// replayScreen runs the interactive replay; tests replace it.
var replayScreen = func(r ui.Replay, opts ui.Options) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return ui.RunReplay(ctx, r, opts, nil)
}

// replayOnTerminal reports whether replay's output is a terminal, where
// the replay is interactive; tests replace it.
var replayOnTerminal = isTerminal

func runReplay(e *env) error {
	fs := newFlags(e, "replay")
	print := fs.Bool("print", false, "print the game turn by turn instead of stepping through it (the default when the output is no terminal)")
	boards := fs.Bool("boards", true, "with --print, draw the board after every move")
	lang := fs.String("lang", "", "`CODE` of the replay's language: "+fmt.Sprint(i18n.Languages())+" (default: from LC_ALL, LC_MESSAGES or LANG)")
	pos, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("want one game log FILE")
	}
	*lang = strings.ToLower(*lang)
	if *lang != "" && i18n.Messages(*lang) == nil {
		return usageError("--lang %q: no such language (have %v)", *lang, i18n.Languages())
	}
	v, err := loadVerified(pos[0])
	if err != nil {
		return err
	}
	if !*print && replayOnTerminal(e.stdout) {
		r := session.ReplayOf(v, namesBeside(pos[0]))
		return replayScreen(r, ui.Options{Lang: i18n.Choose(*lang, playEnv), Rules: v.Setup.Rules})
	}
	printReplay(e.stdout, v, namesBeside(pos[0]), *boards)
	return nil
}

// namesBeside are the players' names saved beside a game log
// (game-ID.names, read bounded by savegame.ParseNames), or none.
func namesBeside(logPath string) map[peer.ID]string {
	f, err := os.Open(strings.TrimSuffix(logPath, ".log") + ".names")
	if err != nil {
		return nil
	}
	defer f.Close()
	return savegame.ParseNames(f)
}

// printReplay is the text form of a replay, for scripts.
func printReplay(w io.Writer, v *lockstep.Verification, names map[peer.ID]string, boards bool) {
	fmt.Fprintf(w, "game %s %q: %s; rules %s\n", v.GameID, v.Setup.Name, seatsLine(v.Setup, names), v.Setup.Rules)
	for _, ev := range v.Events {
		switch ev.Kind {
		case lockstep.EventGameStarted:
			fmt.Fprintf(w, "\nthe dice chose %s to start\n", ev.Colour)
		case lockstep.EventMoved:
			fmt.Fprintf(w, "\nroll %d: %s rolls %d and plays %s%s\n", ev.Roll, ev.Colour, ev.Value, ev.Move, describe(ev.Result))
			if boards {
				fmt.Fprint(w, ev.Pos.Board())
			}
		case lockstep.EventAbsent, lockstep.EventReturned, lockstep.EventCheating, lockstep.EventStateMismatch, lockstep.EventHalted:
			fmt.Fprintf(w, "\n%s\n", ev)
		case lockstep.EventGameOver:
			fmt.Fprintf(w, "\ngame over: %s\n", rankingLine(ev.Ranking))
		}
	}
}
