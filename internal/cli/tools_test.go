package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
)

// run calls Main as the shell would and returns its streams and exit status.
func run(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

const (
	start2 = "H,H,H,H/-/H,H,H,H/- R 0 -"
	start4 = "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -"
)

// TestTools runs moves, perft, arena and watch on good and bad input. A
// case either has a golden file for stdout, or the exact stdout, or words
// that stderr must contain (so each error says what is wrong and where).
func TestTools(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		code    int
		golden  string   // testdata file for stdout
		stdout  string   // exact stdout when no golden file
		errHas  []string // substrings of stderr
		errNone bool     // stderr must be empty
	}{
		{name: "moves start taxi", args: []string{"moves", start4, "6"}, stdout: "R0 L,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 1:0 -\n", errNone: true},
		{name: "moves pass", args: []string{"moves", start2, "1"}, stdout: "pass H,H,H,H/-/H,H,H,H/- Y 0 -\n", errNone: true},
		{name: "moves penalty", args: []string{"moves", "L,5,5,H/-/H,H,H,H/- R 2:12 -", "6"}, stdout: "penalty L,H,H,H/-/H,H,H,H/- Y 0 -\n", errNone: true},
		{name: "moves several", args: []string{"moves", "L,5,5,H/-/9,H,H,H/- R 0 -", "6"}, golden: "moves_several.txt", errNone: true},
		{name: "moves stack off", args: []string{"moves", "--rules", "stack=off", "L,5,5,H/-/9,H,H,H/- R 0 -", "6"}, golden: "moves_stack_off.txt", errNone: true},
		{name: "moves flag after args", args: []string{"moves", "L,H,H,H/-/H,H,H,H/- R 0 -", "2", "--rules", "takeoff=six"}, stdout: "R0 5,H,H,H/-/H,H,H,H/- Y 0 -\n"}, // takeoff=six: no taxi on a 2; L→1 jumps to 5
		{name: "moves shortcut", args: []string{"moves", "14,F,F,F/-/H,H,H,H/- R 0 -", "3"}, stdout: "R0 29,F,F,F/-/H,H,H,H/- Y 0 -\n"},
		{name: "moves game over", args: []string{"moves", "F,F,F,F/-/H,H,H,H/- - 0 R", "3"}, code: 1, errHas: []string{"game is over", "no moves"}},
		{name: "moves bad position", args: []string{"moves", "H,H,H/-/H,H,H,H/- R 0 -", "3"}, code: 2, errHas: []string{"POSITION", "Red has 3 planes, want 4", "usage: aeroplane moves"}},
		{name: "moves bad place", args: []string{"moves", "H,H,H,60/-/H,H,H,H/- R 0 -", "3"}, code: 2, errHas: []string{"POSITION", "Red plane 3", `"60"`}},
		{name: "moves bad side", args: []string{"moves", "H,H,H,H/-/H,H,H,H/- B 0 -", "3"}, code: 2, errHas: []string{"POSITION", "side to move Blue is not in play"}},
		{name: "moves roll 0", args: []string{"moves", start2, "0"}, code: 2, errHas: []string{`ROLL "0"`, "1..6"}},
		{name: "moves roll 7", args: []string{"moves", start2, "7"}, code: 2, errHas: []string{`ROLL "7"`}},
		{name: "moves roll word", args: []string{"moves", start2, "six"}, code: 2, errHas: []string{`ROLL "six"`}},
		{name: "moves bad rules", args: []string{"moves", "--rules", "stack=of", start2, "2"}, code: 2, errHas: []string{"--rules", `stack="of"`, "on or off"}},
		{name: "moves unknown rule", args: []string{"moves", "--rules", "wind=on", start2, "2"}, code: 2, errHas: []string{"--rules", `unknown key "wind"`}},
		{name: "moves unquoted position", args: []string{"moves", "H,H,H,H/-/H,H,H,H/-", "R", "0", "-", "2"}, code: 2, errHas: []string{"want 2 arguments", "quoted", "got 5"}},
		{name: "moves unknown flag", args: []string{"moves", "--depth", "3", start2, "2"}, code: 2, errHas: []string{"flag provided but not defined: -depth"}},

		{name: "perft start", args: []string{"perft", start2, "3"}, stdout: "283\n", errNone: true},
		{name: "perft depth 0", args: []string{"perft", start2, "0"}, stdout: "1\n"},
		{name: "perft game over", args: []string{"perft", "F,F,F,F/-/H,H,H,H/- - 0 R", "2"}, stdout: "0\n"},
		{name: "perft divide", args: []string{"perft", "--divide", start4, "3"}, golden: "perft_divide_start4_3.txt", errNone: true},
		{name: "perft divide rules", args: []string{"perft", "--rules", "takeoff=fivesix,flyjump=on", "--divide", "L,14,30,H/-/52,H,16,H/- R 0 -", "2"}, golden: "perft_divide_rules.txt", errNone: true},
		{name: "perft bad depth", args: []string{"perft", start2, "x"}, code: 2, errHas: []string{`DEPTH "x"`, "0..12"}},
		{name: "perft negative depth", args: []string{"perft", start2, "--", "-1"}, code: 2, errHas: []string{`DEPTH "-1"`, "0..12"}},
		{name: "perft deep", args: []string{"perft", start2, "40"}, code: 2, errHas: []string{`DEPTH "40"`}},
		{name: "perft missing depth", args: []string{"perft", start2}, code: 2, errHas: []string{"want 2 arguments", "got 1"}},
		{name: "perft bad sixes", args: []string{"perft", "L,H,H,H/-/H,H,H,H/- R 1:3 -", "1"}, code: 2, errHas: []string{"POSITION", "Red plane 3 is recorded as moved by a six but is in its hangar"}},

		{name: "arena table", args: []string{"arena", "--bots", "greedy,random,random", "--games", "40", "--seed", "9"}, golden: "arena_table.txt", errNone: true},
		{name: "arena json", args: []string{"arena", "--bots", "greedy,random", "--games", "30", "--seed", "2", "--json"}, golden: "arena_json.txt", errNone: true},
		{name: "arena no bots", args: []string{"arena", "--games", "3"}, code: 2, errHas: []string{"--bots is required", "greedy", "random"}},
		{name: "arena one bot", args: []string{"arena", "--bots", "greedy"}, code: 2, errHas: []string{`--bots "greedy"`, "1 bots, want 2 to 4"}},
		{name: "arena five bots", args: []string{"arena", "--bots", "random,random,random,random,random"}, code: 2, errHas: []string{"5 bots, want 2 to 4"}},
		{name: "arena unknown bot", args: []string{"arena", "--bots", "greedy,clever"}, code: 2, errHas: []string{"seat 2", `bot "clever": unknown kind`}},
		{name: "arena no games", args: []string{"arena", "--bots", "greedy,random", "--games", "0"}, code: 2, errHas: []string{"--games 0"}},
		{name: "arena bad seed", args: []string{"arena", "--bots", "greedy,random", "--seed", "-3"}, code: 2, errHas: []string{"-seed"}},
		{name: "arena bad rules", args: []string{"arena", "--bots", "greedy,random", "--rules", "takeoff=odd"}, code: 2, errHas: []string{"--rules", `takeoff="odd"`}},
		{name: "arena stray argument", args: []string{"arena", "--bots", "greedy,random", "many"}, code: 2, errHas: []string{`unexpected argument "many"`}},

		{name: "watch two bots", args: []string{"watch", "--bots", "greedy,random", "--seed", "4"}, golden: "watch_greedy_random_4.txt", errNone: true},
		{name: "watch bad bots", args: []string{"watch", "--bots", "greedy,nobody"}, code: 2, errHas: []string{`bot "nobody": unknown kind`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := run(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			switch {
			case tc.golden != "":
				checkGolden(t, tc.golden, stdout)
			case tc.code != 0 && stdout != "":
				t.Errorf("failed but printed on stdout:\n%s", stdout)
			case tc.code == 0 && stdout != tc.stdout:
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, tc.stdout)
			}
			for _, s := range tc.errHas {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not contain %q:\n%s", s, stderr)
				}
			}
			if tc.errNone && stderr != "" {
				t.Errorf("stderr not empty:\n%s", stderr)
			}
		})
	}
}

// TestMovesResultsReparse checks that every line of moves names a legal
// outcome and a position that parses back to the same text.
func TestMovesResultsReparse(t *testing.T) {
	stdout, stderr, code := run("moves", "L,5,5,H/-/9,H,H,H/- R 0 -", "6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3 (R0 from L, R1 with its stack, R3 taxi):\n%s", len(lines), stdout)
	}
	for i, want := range []string{"R0", "R1", "R3"} {
		move, pos, ok := strings.Cut(lines[i], " ")
		if !ok || move != want {
			t.Errorf("line %d %q: want move %s", i, lines[i], want)
		}
		if _, _, code := run("perft", pos, "0"); code != 0 {
			t.Errorf("line %d: position %q does not parse back", i, pos)
		}
	}
}

// TestPerftMatchesVectors checks the command against rows of the shared
// vectors (the engine's own test checks every row; this checks the
// command reads and prints them right), both plain and with --divide.
func TestPerftMatchesVectors(t *testing.T) {
	f, err := os.Open("../../engine/testdata/perft.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checked := 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("perft.tsv:%d: %d columns", n, len(cols))
		}
		want, err := strconv.ParseUint(cols[3], 10, 64)
		if err != nil {
			t.Fatalf("perft.tsv:%d: %v", n, err)
		}
		if want > 20000 {
			continue // the engine's test covers the big ones
		}
		args := []string{"perft", cols[1], cols[2]}
		if cols[0] != "" {
			args = append(args, "--rules", cols[0])
		}
		stdout, stderr, code := run(args...)
		if code != 0 || stdout != cols[3]+"\n" {
			t.Errorf("perft.tsv:%d: %q gave exit %d, %q%s, want %s", n, args, code, stdout, stderr, cols[3])
		}
		stdout, _, _ = run(append(args, "--divide")...)
		if !strings.HasSuffix(stdout, "\ntotal "+cols[3]+"\n") {
			t.Errorf("perft.tsv:%d: --divide does not end in total %s:\n%s", n, cols[3], stdout)
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("only %d vector rows checked", checked)
	}
}

// TestArenaJSON checks the shape of --json and that the counts add up.
func TestArenaJSON(t *testing.T) {
	stdout, stderr, code := run("arena", "--bots", "greedy,random,random,random", "--games", "25", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Games int `json:"games"`
		Seats []struct {
			Colour  string     `json:"colour"`
			Bot     string     `json:"bot"`
			Places  []int      `json:"places"`
			WinRate float64    `json:"win_rate"`
			CI95    [2]float64 `json:"ci95"`
		} `json:"seats"`
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if got.Games != 25 || len(got.Seats) != 4 {
		t.Fatalf("games %d, %d seats: %s", got.Games, len(got.Seats), stdout)
	}
	wins := 0
	for i, s := range got.Seats {
		if s.Colour != string("RBYG"[i]) || s.Bot != []string{"greedy", "random", "random", "random"}[i] {
			t.Errorf("seat %d is %s %s", i, s.Colour, s.Bot)
		}
		sum := 0
		for _, n := range s.Places {
			sum += n
		}
		if len(s.Places) != 4 || sum != 25 {
			t.Errorf("seat %d places %v: want 4 counts summing to 25", i, s.Places)
		}
		if s.WinRate != float64(s.Places[0])/25 || s.CI95[0] > s.WinRate || s.CI95[1] < s.WinRate {
			t.Errorf("seat %d win rate %v outside its interval %v or not places[0]/games", i, s.WinRate, s.CI95)
		}
		wins += s.Places[0]
	}
	if wins != 25 {
		t.Errorf("%d wins in 25 games", wins)
	}
}

// TestArenaWorkersAgree checks that the table does not depend on how many
// games are played at once.
func TestArenaWorkersAgree(t *testing.T) {
	one, _, code1 := run("arena", "--bots", "random,greedy", "--games", "50", "--seed", "5", "--workers", "1")
	three, _, code3 := run("arena", "--bots", "random,greedy", "--games", "50", "--seed", "5", "--workers", "3")
	if code1 != 0 || code3 != 0 || one != three {
		t.Errorf("1 worker (exit %d):\n%s\n3 workers (exit %d):\n%s", code1, one, code3, three)
	}
}

// TestProgress checks the terminal status line: one update per whole
// percent, erased at the end, and never on a pipe or file.
func TestProgress(t *testing.T) {
	var b bytes.Buffer
	p := progressPrinter(&b, 200)
	for d := 1; d <= 200; d++ {
		p(d)
	}
	out := b.String()
	if n := strings.Count(out, "\rarena: "); n != 101 {
		t.Errorf("%d updates for 200 games, want 101 (0%%..100%%)", n)
	}
	if !strings.Contains(out, "100/200 games (50%)") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("progress output %q", out)
	}
	if isTerminal(&b) {
		t.Error("a buffer counted as a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file counted as a terminal")
	}
}

// Flags go anywhere among the arguments, also before a position of the
// rule book's notation that starts with "-" (Red not in play).
func TestFlagsAnywhere(t *testing.T) {
	pos := "-/F,0,3,L/-/20,39,38,18 G 2:03 -"
	want, _, code := run("moves", pos, "1", "--rules", "stack=off")
	if code != 0 || want == "" {
		t.Fatalf("moves POSITION ROLL --rules: exit %d", code)
	}
	for _, args := range [][]string{
		{"moves", "--rules", "stack=off", pos, "1"},
		{"moves", "--rules=stack=off", pos, "1"},
		{"moves", pos, "--rules", "stack=off", "1"},
	} {
		got, stderr, code := run(args...)
		if code != 0 || got != want {
			t.Errorf("%q: exit %d, stderr %q, stdout differs from the flags-last form", args, code, stderr)
		}
	}
	perftWant, _, _ := run("perft", pos, "1", "--rules", "stack=off")
	if got, stderr, code := run("perft", "--rules", "stack=off", pos, "1"); code != 0 || got != perftWant {
		t.Errorf("perft --rules first: exit %d, stderr %q", code, stderr)
	}
}

// -h of every command names its arguments, says what it does, and shows
// an example that works; a bad flag prints the error first and only the
// synopsis after it, never the whole help.
func TestCommandHelp(t *testing.T) {
	for _, c := range commands {
		out, _, code := run(c.name, "-h")
		named := strings.HasPrefix(out, "Usage: aeroplane "+c.name+" ") || c.name == "play" && strings.HasPrefix(out, "Usage: aeroplane [play] ")
		if code != 0 || !named || !strings.Contains(out, c.usage) {
			t.Errorf("%s -h: exit %d, output %q", c.name, code, out)
		}
		if strings.Contains(out, "rules.md") {
			t.Errorf("%s -h cites rules.md, which is not in the repository (docs/RULES.md is)", c.name)
		}
		_, stderr, code := run(c.name, "--bogus")
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || !strings.Contains(lines[0], "-bogus") || len(lines) > 3 {
			t.Errorf("%s --bogus: exit %d, stderr %q: want the error on the first of at most 3 lines", c.name, code, stderr)
		}
	}
	for _, c := range []struct{ name, args string }{
		{"moves", "--rules stack=off '-/F,0,3,L/-/20,39,38,18 G 2:03 -' 1"},
		{"perft", "--divide 'H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -' 2"},
		{"watch", "--bots expert,greedy,random --seed 7"},
	} {
		for _, cmd := range commands {
			if cmd.name == c.name && cmd.example != c.args {
				t.Errorf("%s: example %q, want the one this test runs, %q", c.name, cmd.example, c.args)
			}
		}
	}
}

// The examples that -h shows run.
func TestCommandExamplesRun(t *testing.T) {
	for _, args := range [][]string{
		{"moves", "--rules", "stack=off", "-/F,0,3,L/-/20,39,38,18 G 2:03 -", "1"},
		{"perft", "--divide", "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -", "2"},
	} {
		if _, stderr, code := run(args...); code != 0 {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
		}
	}
}

// A pause that is not one says how to write one; a language code in
// capitals is taken.
func TestPlayFlagValues(t *testing.T) {
	_, stderr, code := run("play", "--bot-delay", "fast")
	if code != 2 || !strings.Contains(stderr, "write it like 700ms") {
		t.Errorf("--bot-delay fast: exit %d, stderr %q", code, stderr)
	}
	if err := play(&env{args: []string{"--offline", "--lang", "EN"}, stdout: io.Discard, stderr: io.Discard}, func(s playSetup) error { return nil }); err != nil {
		t.Errorf("--lang EN: %v", err)
	}
}
