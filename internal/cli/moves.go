package cli

import (
	"errors"
	"fmt"
	"strconv"

	"aeroplane/engine"
)

func init() {
	register(command{
		name:    "moves",
		usage:   "[--rules R] POSITION ROLL",
		summary: "list the outcomes of a roll, each with the position it leads to",
		example: `--rules stack=off '-/F,0,3,L/-/20,39,38,18 G 2:03 -' 1`,
		run:     runMoves,
	})
}

// errGameOver is returned for a position where nobody moves any more.
var errGameOver = errors.New("the game is over: the position has no side to move and no moves")

func runMoves(e *env) error {
	fs := newFlags(e, "moves")
	rulesFlag := fs.String("rules", "", "rule set key=value,… (docs/RULES.md, Rule options); empty: the defaults")
	args, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(args) != 2 {
		return usageError("want 2 arguments, POSITION (quoted: it contains spaces) and ROLL, got %d", len(args))
	}
	rules, pos, err := parseRulesAndPosition(*rulesFlag, args[0])
	if err != nil {
		return err
	}
	roll, err := strconv.Atoi(args[1])
	if err != nil || !engine.ValidRoll(roll) {
		return usageError("ROLL %q: want a die face 1..6", args[1])
	}
	if pos.GameOver() {
		return fmt.Errorf("position %q: %w", args[0], errGameOver)
	}
	outs := pos.Outcomes(rules, roll)
	for k := 0; k < outs.Len(); k++ {
		m := outs.At(k)
		q := pos
		q.Apply(rules, roll, m)
		fmt.Fprintf(e.stdout, "%s %s\n", m, q)
	}
	return nil
}

// parseRulesAndPosition reads the --rules flag and the POSITION argument
// shared by moves and perft; errors say which of the two is wrong.
func parseRulesAndPosition(rulesText, posText string) (engine.Rules, engine.Position, error) {
	rules, err := engine.ParseRules(rulesText)
	if err != nil {
		return rules, engine.Position{}, usageError("--rules: %v", err)
	}
	pos, err := engine.ParsePosition(posText)
	if err != nil {
		return rules, pos, usageError("POSITION: %v", err)
	}
	return rules, pos, nil
}
