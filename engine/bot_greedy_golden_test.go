package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"aeroplane/internal/testkit"
)

// greedyGoldenPath lists greedy's choice at positions of seeded games, one
// per line: rules, position, roll, seed, choice (tab-separated). Every peer
// runs the bots of empty seats in lockstep, so a change to greedy's choices
// is a change of protocol: this file makes it show up in review.
// Regenerate with: go test ./engine -run TestGreedyGolden -update
var greedyGoldenPath = filepath.Join("testdata", "bot_greedy", "choices.tsv")

// greedyGoldenRows plays greedy against itself under several rule sets and
// records every 7th choice among two or more outcomes.
func greedyGoldenRows() []string {
	rows := []string{"# rules\tposition\troll\tseed\tchoice"}
	for g, rs := range []string{"", "takeoff=six,overshoot=stay", "stack=off,flyjump=on", "takeoff=fivesix"} {
		rules, _ := ParseRules(rs)
		colours := [][]Colour{{Red, Blue, Yellow, Green}, {Red, Yellow}, {Red, Blue, Yellow}, {Blue, Green}}[g]
		p, _ := NewGame(colours...)
		r := NewRand(uint64(1000 + g))
		bot := greedyBot{w: defaultGreedyWeights}
		k := 0
		for !p.GameOver() {
			roll := r.Roll()
			outs := p.Outcomes(rules, roll)
			seed := r.Uint64()
			m := bot.Choose(&p, rules, roll, &outs, seed)
			if outs.Len() >= 2 {
				if k%7 == 0 {
					rows = append(rows, fmt.Sprintf("%s\t%s\t%d\t%d\t%s", rs, p, roll, seed, m))
				}
				k++
			}
			p.Apply(rules, roll, m)
		}
	}
	return rows
}

func TestGreedyGolden(t *testing.T) {
	if testkit.Updating() {
		testkit.Golden(t, greedyGoldenPath, []byte(strings.Join(greedyGoldenRows(), "\n")+"\n"))
	}
	data, err := os.ReadFile(greedyGoldenPath)
	if err != nil {
		t.Fatalf("%v (go test ./engine -run TestGreedyGolden -update creates it)", err)
	}
	bot := botTestBot(t, "greedy")
	n := 0
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 5 {
			t.Fatalf("%s:%d: %d columns, want 5", greedyGoldenPath, i+1, len(cols))
		}
		rules, err := ParseRules(cols[0])
		if err != nil {
			t.Fatalf("%s:%d: %v", greedyGoldenPath, i+1, err)
		}
		p := botTestPosition(t, cols[1])
		roll, err1 := strconv.Atoi(cols[2])
		seed, err2 := strconv.ParseUint(cols[3], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s:%d: bad roll or seed", greedyGoldenPath, i+1)
		}
		outs := p.Outcomes(rules, roll)
		if got := bot.Choose(&p, rules, roll, &outs, seed).String(); got != cols[4] {
			t.Errorf("%s:%d: greedy chose %s, the file says %s (rules %q, %s, roll %d)", greedyGoldenPath, i+1, got, cols[4], cols[0], cols[1], roll)
		}
		n++
	}
	if n < 50 {
		t.Errorf("only %d choices in %s", n, greedyGoldenPath)
	}
}
