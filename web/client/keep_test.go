package client

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
)

// TestKeeperKeepsTheKey: the browser's key is the same after a reload
// (a new Keeper on the same storage), and a kept key that does not read
// is replaced by a fresh one, with the game kept for it forgotten.
func TestKeeperKeepsTheKey(t *testing.T) {
	st := &MapStore{}
	a, err := NewKeeper(st).Identity()
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewKeeper(st).Identity()
	if err != nil || b.ID != a.ID {
		t.Fatalf("after a reload the key is %v (%v), was %v", b.ID, err, a.ID)
	}
	sig, err := b.Sign([]byte("x"))
	if ok, _ := a.key.GetPublic().Verify([]byte("x"), sig); err != nil || !ok {
		t.Fatal("the kept key does not sign as the first")
	}
	for _, bad := range []string{"", "!!!", "AAAA"} {
		st := &MapStore{}
		_ = st.Set(keyKey, bad)
		_ = st.Set(keyEntropy, "x")
		c, err := NewKeeper(st).Identity()
		if err != nil || c.ID == "" || c.ID == a.ID {
			t.Fatalf("kept key %q: %v, %v", bad, c, err)
		}
		if _, ok := st.Get(keyEntropy); ok {
			t.Errorf("kept key %q: the game kept for it is still there", bad)
		}
	}
}

// fakeServer is a serving program that has sat the browser already: its
// hello, then the game's setup; what the browser sends goes nowhere (its
// only opponent is a bot, played by its own node).
type fakeServer struct{ recv chan []byte }

func newFakeServer(t *testing.T, setup lockstep.Setup) *fakeServer {
	s := &fakeServer{recv: make(chan []byte, 2)}
	hello, _, err := Hello()
	if err != nil {
		t.Fatal(err)
	}
	s.recv <- hello
	s.recv <- EncodeSetup(setup)
	return s
}

func (s *fakeServer) Send([]byte) error   { return nil }
func (s *fakeServer) Recv() <-chan []byte { return s.recv }

// TestKeeperResumesAfterReload: a browser plays a game against a bot,
// the page is reloaded at its fourth choice (its node, socket and memory
// gone), and a new page on the same storage takes the seat again from
// what was kept: the same key, the chain secret and the log, rebuilt by
// lockstep.Restore. It plays on to the end; the log it exports starts
// with every byte the first page logged and verifies whole (one chain,
// no cheat), and the finished game is forgotten.
func TestKeeperResumesAfterReload(t *testing.T) {
	st := &MapStore{}
	id, err := NewKeeper(st).Identity()
	if err != nil {
		t.Fatal(err)
	}
	setup := lockstep.Setup{Version: lockstep.Version, Name: "reload", Rules: engine.DefaultRules(), Nonce: [16]byte{3},
		Seats: []lockstep.Seat{{Colour: engine.Red, Player: id.ID}, {Colour: engine.Yellow, Bot: engine.BotKinds()[0]}}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	pageCtx, reload := context.WithCancel(ctx)
	first := NewMemLog()
	asked := 0
	_, err = Play(pageCtx, newFakeServer(t, setup), id, GameConfig{Log: first, Keep: NewKeeper(st),
		AskMove: func(moves []engine.Move, choose func(engine.Move) error) {
			asked++
			if asked == 4 {
				reload()
				return
			}
			go func() { _ = choose(moves[0]) }()
		}})
	if !errors.Is(err, context.Canceled) || asked < 4 {
		t.Fatalf("the first page: %v after %d choices", err, asked)
	}
	kept, ok := NewKeeper(st).Game()
	if !ok || kept.Setup.GameID() != setup.GameID() || !bytes.Equal(kept.Log, first.Bytes()) {
		t.Fatalf("kept: %v, game %v, log %d bytes of %d", ok, kept.Setup.GameID(), len(kept.Log), len(first.Bytes()))
	}

	id2, err := NewKeeper(st).Identity()
	if err != nil || id2.ID != id.ID {
		t.Fatalf("the reloaded page's key %v (%v)", id2.ID, err)
	}
	again := NewMemLog()
	resumedAsked := 0
	end, err := Play(ctx, newFakeServer(t, setup), id2, GameConfig{Log: again, Keep: NewKeeper(st),
		AskMove: func(moves []engine.Move, choose func(engine.Move) error) {
			resumedAsked++
			go func() { _ = choose(moves[0]) }()
		}})
	if err != nil || end.Phase != lockstep.PhaseOver {
		t.Fatalf("the reloaded page: %v, phase %v", err, end.Phase)
	}
	data := again.Bytes()
	if !bytes.HasPrefix(data, first.Bytes()) || len(data) <= len(first.Bytes()) {
		t.Fatalf("the reloaded page's log (%d bytes) does not go on from the first's (%d)", len(data), len(first.Bytes()))
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.Phase != lockstep.PhaseOver || len(v.Cheats) != 0 || v.History != end.History {
		t.Fatalf("the exported log: %v, %v", v, err)
	}
	if resumedAsked == 0 {
		t.Fatal("the reloaded page was never asked to choose")
	}
	if _, ok := NewKeeper(st).Game(); ok || st.Len() != 1 {
		t.Fatalf("the finished game is still kept (%d keys; only the browser's key should stay)", st.Len())
	}
	t.Logf("reloaded after %d choices at %d log bytes; %d more choices, %d rolls, log %d bytes", asked, len(first.Bytes()), resumedAsked, v.Rolls, len(data))
}

// TestKeeperLogParts: the kept log is written in parts (a write
// rewrites only the last part), reads back byte for byte across part
// boundaries, a torn last record is cut off, and past MaxKeptLog the
// game is forgotten, OnLost told once.
func TestKeeperLogParts(t *testing.T) {
	st := &MapStore{}
	k := NewKeeper(st)
	lost := 0
	k.OnLost = func(err error) {
		lost++
		if !errors.Is(err, ErrNotKept) {
			t.Errorf("OnLost(%v), want ErrNotKept", err)
		}
	}
	id, _ := NewIdentity()
	setup := lockstep.Setup{Version: lockstep.Version, Name: "parts", Rules: engine.DefaultRules(),
		Seats: []lockstep.Seat{{Colour: engine.Red, Player: id.ID}, {Colour: engine.Yellow, Bot: engine.BotKinds()[0]}}}
	if err := k.begin([32]byte{9}); err != nil {
		t.Fatal(err)
	}
	mem := NewMemLog()
	lg := keptLog{Log: mem, k: k, onLost: k.OnLost}
	if err := lg.Write([]lockstep.Record{{Type: lockstep.RecordSetup, Data: setup.Encode()}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; len(mem.Bytes()) < 3*LogPartBytes+100; i++ {
		if err := lg.Write([]lockstep.Record{{Type: lockstep.RecordMessage, Data: bytes.Repeat([]byte{byte(i)}, 700+i%300)}}); err != nil {
			t.Fatal(err)
		}
	}
	g, ok := k.Game()
	if !ok || !bytes.Equal(g.Log, mem.Bytes()) || g.Entropy != [32]byte{9} || g.Setup.GameID() != setup.GameID() {
		t.Fatalf("kept game %v, log equal %v", ok, bytes.Equal(g.Log, mem.Bytes()))
	}
	if _, ok := st.Get(keyLogPart + "3"); !ok {
		t.Fatal("the log is not in parts")
	}
	for i := range 3 {
		p, _ := st.Get(keyLogPart + strconv.Itoa(i))
		if len(p) != (LogPartBytes+2)/3*4 {
			t.Errorf("part %d is %d base64 characters, want a full part", i, len(p))
		}
	}
	// A torn last record (the tab killed in a write): the records before it.
	last, _ := st.Get(keyLogPart + "3")
	_ = st.Set(keyLogPart+"3", last[:len(last)-8])
	torn, ok := NewKeeper(st).Game()
	if !ok || len(torn.Records) != len(g.Records)-1 || !bytes.HasPrefix(g.Log, torn.Log) {
		t.Fatalf("torn: %v, %d records of %d", ok, len(torn.Records), len(g.Records))
	}
	// Past the cap: forgotten, told once, nothing but the game's keys gone.
	big := bytes.Repeat([]byte{1}, 200<<10)
	for range MaxKeptLog/len(big) + 2 {
		if err := lg.Write([]lockstep.Record{{Type: lockstep.RecordMessage, Data: big}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := k.Game(); ok || lost != 1 || st.Len() != 0 {
		t.Fatalf("past the cap: kept %v, OnLost %d times, %d keys", ok, lost, st.Len())
	}
}

// FuzzKeptGame: whatever the browser's storage holds (another version's,
// damaged, edited by hand), reading it never panics, and a game it
// gives has a setup record first and a log that parses.
func FuzzKeptGame(f *testing.F) {
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "QUVST0xPRwoAAQAA", "")
	f.Add("", "", "")
	f.Add("AAAA", "!!", "QUVST0xPRwoAAQAA")
	f.Fuzz(func(t *testing.T, entropy, part0, part1 string) {
		st := &MapStore{}
		_ = st.Set(keyEntropy, entropy)
		_ = st.Set(keyLogPart+"0", part0)
		_ = st.Set(keyLogPart+"1", part1)
		g, ok := NewKeeper(st).Game()
		if !ok {
			return
		}
		recs, err := lockstep.ParseLog(g.Log)
		if err != nil || len(recs) == 0 || recs[0].Type != lockstep.RecordSetup || !strings.HasPrefix(string(g.Log), string(lockstep.LogHeader())) {
			t.Fatalf("kept game with log %x: %v", g.Log, err)
		}
	})
}
