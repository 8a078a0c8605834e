package engine

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftVector struct {
	line     int
	rules    string
	position string
	depth    int
	want     uint64
}

func loadPerftVectors(t *testing.T) []perftVector {
	t.Helper()
	f, err := os.Open("testdata/perft.tsv")
	if err != nil {
		t.Fatalf("open vectors: %v", err)
	}
	defer f.Close()
	var vs []perftVector
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("perft.tsv:%d: %d columns, want 4", n, len(cols))
		}
		d, err1 := strconv.Atoi(cols[2])
		w, err2 := strconv.ParseUint(cols[3], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("perft.tsv:%d: bad depth or count", n)
		}
		vs = append(vs, perftVector{n, cols[0], cols[1], d, w})
	}
	if len(vs) == 0 {
		t.Fatal("no perft vectors read")
	}
	return vs
}

// TestPerftVectors checks every row of the shared vectors, each computed by
// two independent reference engines.
func TestPerftVectors(t *testing.T) {
	for _, v := range loadPerftVectors(t) {
		t.Run(strconv.Itoa(v.line), func(t *testing.T) {
			if testing.Short() && v.want > 100000 {
				t.Skip("large count; run without -short")
			}
			r, err := ParseRules(v.rules)
			if err != nil {
				t.Fatal(err)
			}
			p, err := ParsePosition(v.position)
			if err != nil {
				t.Fatal(err)
			}
			if got := Perft(p, r, v.depth); got != v.want {
				t.Errorf("perft(%q, %q, %d) = %d, want %d\n%s", v.rules, v.position, v.depth, got, v.want, p.Board())
			}
		})
	}
}
