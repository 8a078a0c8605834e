package cli

import (
	"fmt"
	"strconv"

	"aeroplane/engine"
)

func init() {
	register(command{
		name:    "perft",
		usage:   "[--rules R] [--divide] POSITION DEPTH",
		summary: "count roll-and-choice sequences (docs/RULES.md, Checking an engine) to check the rules",
		example: `--divide 'H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -' 2`,
		run:     runPerft,
	})
}

// maxPerftDepth keeps a typo from starting a computation that never ends:
// the count grows about sevenfold per ply.
const maxPerftDepth = 12

func runPerft(e *env) error {
	fs := newFlags(e, "perft")
	rulesFlag := fs.String("rules", "", "rule set key=value,… (docs/RULES.md, Rule options); empty: the defaults")
	divide := fs.Bool("divide", false, "print the count below each first roll and outcome, then the total")
	args, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(args) != 2 {
		return usageError("want 2 arguments, POSITION (quoted: it contains spaces) and DEPTH, got %d", len(args))
	}
	rules, pos, err := parseRulesAndPosition(*rulesFlag, args[0])
	if err != nil {
		return err
	}
	depth, err := strconv.Atoi(args[1])
	if err != nil || depth < 0 || depth > maxPerftDepth {
		return usageError("DEPTH %q: want a whole number 0..%d", args[1], maxPerftDepth)
	}
	if !*divide {
		fmt.Fprintln(e.stdout, engine.Perft(pos, rules, depth))
		return nil
	}
	var total uint64
	for _, d := range engine.Divide(pos, rules, depth) {
		fmt.Fprintf(e.stdout, "%d %s %d\n", d.Roll, d.Move, d.Count)
		total += d.Count
	}
	if depth == 0 {
		total = 1 // perft(P, 0) = 1 counts the empty sequence, which has no first roll
	}
	fmt.Fprintf(e.stdout, "total %d\n", total)
	return nil
}
