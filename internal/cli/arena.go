package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"aeroplane/engine"
	"aeroplane/internal/arena"
)

func init() {
	register(command{
		name:    "arena",
		usage:   "[--rules R] --bots greedy,random[,…] [--games N] [--seed S] [--workers W] [--json]",
		summary: "play many bot games and report each seat's places with 95% intervals",
		run:     runArena,
	})
}

func runArena(e *env) error {
	fs := newFlags(e, "arena")
	rulesFlag := fs.String("rules", "", "rule set key=value,… (docs/RULES.md, Rule options); empty: the defaults")
	botsFlag := fs.String("bots", "", "bot kinds in seat order R,B,Y,G (2 bots: R,Y; 3: R,B,Y); kinds: "+strings.Join(engine.BotKinds(), ", "))
	games := fs.Int("games", 1000, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the dice and the bots; game k of a seed always plays the same")
	workers := fs.Int("workers", 0, "games played at once (0: one per CPU); the results do not depend on it")
	asJSON := fs.Bool("json", false, "print one JSON object instead of a table")
	pos, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("unexpected argument %q", pos[0])
	}
	rules, err := engine.ParseRules(*rulesFlag)
	if err != nil {
		return usageError("--rules: %v", err)
	}
	bots, err := parseBots(*botsFlag)
	if err != nil {
		return err
	}
	if *games < 1 {
		return usageError("--games %d: want at least 1", *games)
	}
	if *workers < 0 {
		return usageError("--workers %d: want 0 or more", *workers)
	}
	cfg := arena.Config{Rules: rules, Bots: bots, Games: *games, Seed: *seed, Workers: *workers}
	if isTerminal(e.stderr) {
		cfg.Progress = progressPrinter(e.stderr, *games)
	}
	st, err := arena.Run(cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeArenaJSON(e.stdout, st)
	}
	return writeArenaTable(e.stdout, st)
}

// parseBots reads a comma-separated list of 2 to 4 bot kinds.
func parseBots(s string) ([]string, error) {
	if s == "" {
		return nil, usageError("--bots is required: 2 to 4 bot kinds in seat order, e.g. --bots greedy,random (kinds: %s)", strings.Join(engine.BotKinds(), ", "))
	}
	bots := strings.Split(s, ",")
	if n := len(bots); n < 2 || n > engine.NumColours {
		return nil, usageError("--bots %q: %d bots, want 2 to 4", s, n)
	}
	for i, b := range bots {
		if _, err := engine.NewBot(b); err != nil {
			return nil, usageError("--bots %q: seat %d: %v", s, i+1, err)
		}
	}
	return bots, nil
}

// isTerminal reports whether w is a character device (a terminal), where
// progress lines belong; redirected to a file or pipe it is not.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressPrinter rewrites one status line at every whole percent and
// erases it when the run is done.
func progressPrinter(w io.Writer, total int) func(int) {
	last := -1
	return func(done int) {
		pct := done * 100 / total
		if pct == last {
			return
		}
		last = pct
		fmt.Fprintf(w, "\rarena: %d/%d games (%d%%)", done, total, pct)
		if done == total {
			fmt.Fprint(w, "\r\x1b[K")
		}
	}
}

var placeNames = []string{"1st", "2nd", "3rd", "4th"}

func writeArenaTable(w io.Writer, st arena.Stats) error {
	fmt.Fprintf(w, "%d games, seed %d, rules %s\n", st.Games, st.Seed, st.Rules)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "seat\tbot")
	for k := range st.Seats {
		fmt.Fprintf(tw, "\t%s (95%% interval)", placeNames[k])
	}
	fmt.Fprintln(tw)
	for s, seat := range st.Seats {
		fmt.Fprintf(tw, "%c\t%s", seat.Colour.Letter(), seat.Bot)
		for k := range seat.Places {
			lo, hi := st.Interval(s, k)
			fmt.Fprintf(tw, "\t%5.1f%% [%4.1f, %4.1f]", 100*st.Share(s, k), 100*lo, 100*hi)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

type arenaJSON struct {
	Games int        `json:"games"`
	Seats []seatJSON `json:"seats"`
}

type seatJSON struct {
	Colour  string     `json:"colour"`
	Bot     string     `json:"bot"`
	Places  []int      `json:"places"`
	WinRate float64    `json:"win_rate"`
	CI95    [2]float64 `json:"ci95"`
}

func writeArenaJSON(w io.Writer, st arena.Stats) error {
	out := arenaJSON{Games: st.Games}
	for s, seat := range st.Seats {
		lo, hi := st.Interval(s, 0)
		out.Seats = append(out.Seats, seatJSON{
			Colour: string(seat.Colour.Letter()), Bot: seat.Bot, Places: seat.Places,
			WinRate: st.WinRate(s), CI95: [2]float64{lo, hi},
		})
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}
