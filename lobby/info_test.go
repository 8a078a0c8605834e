package lobby

import (
	"testing"

	"aeroplane/engine"
)

// The answer to Query is rebuilt when the table changes, not on every
// turn of the loop, and it is always the table's: a guest who joins is
// counted, and to that guest its own seat is free.
func TestRefreshInfoOnlyOnChange(t *testing.T) {
	l := &runner{cfg: Config{Player: names[0], Lobby: "friday"}, draw: 7}
	if !l.refreshInfo() || l.refreshInfo() {
		t.Fatal("not hosting: built once, then left alone")
	}
	l.table = mustTable(t, TableConfig{Creator: member(0), Players: 3, Rules: engine.DefaultRules()})
	if !l.refreshInfo() {
		t.Fatal("a new table did not rebuild the answer")
	}
	for range 3 {
		if l.refreshInfo() {
			t.Fatal("a turn that changed nothing rebuilt the answer")
		}
	}
	if _, _, err := l.table.Join(ids[1], names[1], nil); err != nil {
		t.Fatal(err)
	}
	if !l.refreshInfo() {
		t.Fatal("a join did not rebuild the answer")
	}
	anyone, err := decodeInfo(l.info.load(ids[2]))
	if err != nil {
		t.Fatal(err)
	}
	seated, err := decodeInfo(l.info.load(ids[1]))
	if err != nil {
		t.Fatal(err)
	}
	if anyone.Free != 1 || anyone.Taken != 2 || seated.Free != 2 || seated.Taken != 1 {
		t.Errorf("answers: to anyone free %d taken %d, to the seated guest free %d taken %d; want 1 2, 2 1",
			anyone.Free, anyone.Taken, seated.Free, seated.Taken)
	}
}

// BenchmarkInfoTurn is the answer's cost on a loop turn that changes
// nothing (it was two encodings and a map every turn).
func BenchmarkInfoTurn(b *testing.B) {
	l := &runner{cfg: Config{Player: names[0], Lobby: "friday"}}
	tb, err := New(TableConfig{Creator: member(0), Players: 4, Rules: engine.DefaultRules()})
	if err != nil {
		b.Fatal(err)
	}
	l.table = tb
	b.ReportAllocs()
	for b.Loop() {
		l.refreshInfo()
	}
}
