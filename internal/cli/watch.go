package cli

import (
	"fmt"
	"strings"

	"aeroplane/engine"
	"aeroplane/internal/arena"
)

func init() {
	register(command{
		name:    "watch",
		usage:   "[--rules R] [--bots greedy,random,…] [--seed S]",
		summary: "watch one bot game, drawn turn by turn as text",
		example: `--bots expert,greedy,random --seed 7`,
		run:     runWatch,
	})
}

func runWatch(e *env) error {
	fs := newFlags(e, "watch")
	rulesFlag := fs.String("rules", "", "rule set key=value,… (docs/RULES.md, Rule options); empty: the defaults")
	botsFlag := fs.String("bots", "greedy,random,random,random", "bot kinds in seat order R,B,Y,G (2 bots: R,Y; 3: R,B,Y); kinds: "+strings.Join(engine.BotKinds(), ", "))
	seed := fs.Uint64("seed", 1, "seed of the dice and the bots; the game is game 0 of 'aeroplane arena' with this seed")
	args, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(args) != 0 {
		return usageError("unexpected argument %q", args[0])
	}
	rules, err := engine.ParseRules(*rulesFlag)
	if err != nil {
		return usageError("--rules: %v", err)
	}
	kinds, err := parseBots(*botsFlag)
	if err != nil {
		return err
	}
	bots := make([]engine.Bot, len(kinds))
	for i, k := range kinds {
		bots[i], _ = engine.NewBot(k) // parseBots checked the kinds
	}
	colours, _ := arena.Seats(len(bots))
	botOf := map[engine.Colour]string{}
	fmt.Fprintf(e.stdout, "rules %s, seed %d\nseats:", rules, *seed)
	for i, c := range colours {
		botOf[c] = kinds[i]
		fmt.Fprintf(e.stdout, " %c=%s", c.Letter(), kinds[i])
	}
	fmt.Fprintln(e.stdout)
	start, _ := engine.NewGame(colours...)
	fmt.Fprintf(e.stdout, "\n%s", start.Board())
	g := arena.Game{Rules: rules, Bots: bots, Seed: *seed, Index: 0}
	places, err := g.Play(func(p arena.Ply) {
		mover := p.Before.ToMove()
		fmt.Fprintf(e.stdout, "\nply %d: %c (%s) rolls %d: %s%s\n%s", p.N, mover.Letter(), botOf[mover], p.Roll, p.Move, describe(p.Result), p.After.Board())
	})
	if err != nil {
		return err
	}
	fmt.Fprint(e.stdout, "\nresult:")
	for place := range places {
		for s, sp := range places {
			if sp == place {
				fmt.Fprintf(e.stdout, " %s %c (%s)", placeNames[place], colours[s].Letter(), kinds[s])
			}
		}
	}
	fmt.Fprintln(e.stdout)
	return nil
}

// describe says in words what a plane move did: where it went, jumps,
// flights, captures and penalties.
func describe(r engine.Result) string {
	var b strings.Builder
	switch r.Move.Kind {
	case engine.Pass:
		return " (no legal move)"
	case engine.Penalty:
		return " (third six: the planes moved by sixes go home)"
	}
	// Squares by the names the game's board shows (engine.Place.Name).
	c := r.Move.Colour
	fmt.Fprintf(&b, " %s→%s", r.From.Name(c), r.Landed.Name(c))
	if r.Bounced {
		b.WriteString(" bounced")
	}
	if r.JumpTo >= 0 {
		fmt.Fprintf(&b, " jump→%s", r.JumpTo.Name(c))
	}
	if r.FlyTo >= 0 {
		fmt.Fprintf(&b, " shortcut→%s", r.FlyTo.Name(c))
	}
	if r.FlyJumpTo >= 0 {
		fmt.Fprintf(&b, " flyjump→%s", r.FlyJumpTo.Name(c))
	}
	for _, c := range r.Captures[:r.NCaptures] {
		fmt.Fprintf(&b, " captures %c%d", c.Colour.Letter(), c.Plane)
	}
	if r.ColourFinished {
		b.WriteString(" all planes home")
	}
	if r.ExtraRoll {
		b.WriteString(", rolls again")
	}
	return b.String()
}
