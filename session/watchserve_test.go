package session

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"testing"
	"time"

	"aeroplane/lockstep"
	"aeroplane/savegame"

	"github.com/libp2p/go-libp2p/core/peer"
)

// finishedLog is lockstep's golden finished game: its records, as a
// player's log holds them.
func finishedLog(t *testing.T) ([]lockstep.Record, *lockstep.Verification) {
	t.Helper()
	recs, _, v := lockstepLog(t, "game.log")
	return recs, v
}

// lockstepLog is one of lockstep's golden logs (lockstep/testdata): its
// records, its setup and what verifying it found.
func lockstepLog(t *testing.T, name string) ([]lockstep.Record, lockstep.Setup, *lockstep.Verification) {
	t.Helper()
	data, err := os.ReadFile("../lockstep/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	v, err := lockstep.VerifyRecords(recs)
	if err != nil {
		t.Fatal(err)
	}
	return recs, setup, v
}

// stillClock is a watch server's clock that moves only when told.
type stillClock struct{ at time.Time }

func (c *stillClock) now() time.Time { return c.at }

func testServer(t *testing.T, recs []lockstep.Record) (*watchServer, *stillClock, *[]peer.ID) {
	t.Helper()
	var gid lockstep.GameID
	if len(recs) > 0 {
		setup, err := lockstep.DecodeSetup(recs[0].Data)
		if err != nil {
			t.Fatal(err)
		}
		gid = setup.GameID()
	}
	srv := newWatchServer(gid, true, recs)
	clk := &stillClock{at: time.Unix(1_800_000_000, 0)}
	srv.now = clk.now
	var cut []peer.ID
	srv.cut = func(id peer.ID) { cut = append(cut, id) }
	return srv, clk, &cut
}

func ask(t *testing.T, srv *watchServer, from peer.ID, req []byte) (watchAnswer, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	b := srv.answer(ctx, from, req)
	if b == nil {
		return watchAnswer{}, false
	}
	a, err := decodeWatchAnswer(b)
	if err != nil {
		t.Fatalf("the server's answer does not parse: %v", err)
	}
	return a, true
}

// An honest watcher that pulls a player's whole log batch by batch,
// checking each record with its own referee, ends with the players'
// history, a saved log that verifies, and was never struck.
func TestWatchServerServesAVerifiableLog(t *testing.T) {
	recs, want := finishedLog(t)
	srv, clk, cut := testServer(t, recs)
	var node *lockstep.Node
	var saved []lockstep.Record
	from := uint32(0)
	gid := want.GameID
	for guard := 0; guard < 100 && int(from) < len(recs); guard++ {
		clk.at = clk.at.Add(time.Second)
		a, ok := ask(t, srv, "watcher", encodeWatchRequest(watchRequest{Game: gid, From: from, Name: "zoe"}))
		if !ok || a.Status != watchOK || a.From != from {
			t.Fatalf("request from %d: ok %v, %+v", from, ok, a)
		}
		for i, r := range a.Records {
			if from == 0 && i == 0 {
				s, err := lockstep.DecodeSetup(r.Data)
				if err != nil {
					t.Fatal(err)
				}
				if node, err = lockstep.NewObserver(s); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := node.Step("player", r.Data); err != nil {
				t.Fatalf("record %d: %v", int(from)+i, err)
			}
		}
		rd := node.Ready()
		saved = append(saved, rd.LogEntries...)
		node.Advance(rd)
		from += uint32(len(a.Records))
	}
	if len(*cut) > 0 || srv.Stats().Strikes > 0 {
		t.Fatalf("an honest watcher was struck: %+v", srv.Stats())
	}
	data := append(lockstep.LogHeader(), lockstep.EncodeRecords(saved...)...)
	v, err := lockstep.Verify(data)
	if err != nil {
		t.Fatalf("the watcher's log does not verify: %v", err)
	}
	if v.History != want.History || v.Phase != lockstep.PhaseOver || v.Records != want.Records {
		t.Fatalf("watched: %s %x, %d records; the player's: %s %x, %d", v.Phase, v.History, v.Records, want.Phase, want.History, want.Records)
	}
	if got := srv.Watchers(); len(got) != 1 || got[0] != "zoe" {
		t.Fatalf("Watchers() = %v, want [zoe]", got)
	}
}

// A watcher that floods, lies about what it holds, or sends garbage is
// cut off after maxWatchStrikes strikes (its connection closed, its
// requests refused); one that asks at an honest pace never is.
func TestWatchServerCutsOffFloodsAndLies(t *testing.T) {
	recs, v := finishedLog(t)
	gid := v.GameID
	good := encodeWatchRequest(watchRequest{Game: gid, Name: "zoe"})
	cases := []struct {
		name  string
		req   []byte
		every time.Duration // between two requests
		cut   bool
	}{
		{"a flood of honest requests", good, 0, true},
		{"records it never had (a lie)", encodeWatchRequest(watchRequest{Game: gid, From: uint32(len(recs) + 5), Name: "zoe"}), time.Second, true},
		{"chat lines it never had (a lie)", encodeWatchRequest(watchRequest{Game: gid, ChatFrom: 7, Name: "zoe"}), time.Second, true},
		{"garbage", []byte("GET / HTTP/1.1\r\n\r\n"), time.Second, true},
		{"a request cut short", good[:20], time.Second, true},
		{"honest requests at an honest pace", good, 2 * watchEvery, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, clk, cut := testServer(t, recs)
			for range 3 * (watchBurst + maxWatchStrikes) {
				clk.at = clk.at.Add(c.every)
				ask(t, srv, "bad", c.req)
			}
			if got := len(*cut) > 0; got != c.cut {
				t.Fatalf("cut off: %v, want %v (stats %+v)", got, c.cut, srv.Stats())
			}
			if !c.cut {
				return
			}
			a, ok := ask(t, srv, "bad", good)
			if !ok || a.Status != watchRefused {
				t.Fatalf("a cut-off watcher's next request: %v %+v, want refused", ok, a)
			}
			clk.at = clk.at.Add(refuseFor + time.Second)
			if a, ok := ask(t, srv, "bad", good); !ok || a.Status != watchOK {
				t.Fatalf("after refuseFor the watcher is served again: %v %+v", ok, a)
			}
			// Others were never affected.
			if a, ok := ask(t, srv, "other", good); !ok || a.Status != watchOK {
				t.Fatalf("another watcher: %v %+v", ok, a)
			}
		})
	}
}

// A player serves at most maxWatchers watchers at once; the next is told
// the game is full, and is served once one has gone quiet.
func TestWatchServerCapsWatchers(t *testing.T) {
	recs, v := finishedLog(t)
	srv, clk, _ := testServer(t, recs)
	req := encodeWatchRequest(watchRequest{Game: v.GameID, Name: "w"})
	for i := range maxWatchers {
		if a, ok := ask(t, srv, peer.ID(fmt.Sprint("w", i)), req); !ok || a.Status != watchOK {
			t.Fatalf("watcher %d: %v %+v", i, ok, a)
		}
	}
	if a, ok := ask(t, srv, "late", req); !ok || a.Status != watchFull {
		t.Fatalf("watcher %d: %v %+v, want full", maxWatchers, ok, a)
	}
	clk.at = clk.at.Add(watcherIdle)
	if a, ok := ask(t, srv, "late", req); !ok || a.Status != watchOK {
		t.Fatalf("after the others went quiet: %v %+v", ok, a)
	}
}

// A player whose log is tampered with (one signature changed, or records
// of another game) is caught by the watcher's referee: take fails and
// names the record, and nothing of it is saved.
func TestSpectatorCatchesALyingPlayer(t *testing.T) {
	recs, v := finishedLog(t)
	tampered := func(k int) []lockstep.Record {
		out := append([]lockstep.Record(nil), recs...)
		d := append([]byte(nil), out[k].Data...)
		d[len(d)-1] ^= 1 // the signature's last byte
		out[k].Data = d
		return out
	}
	other := append([]lockstep.Record(nil), recs...)
	other[0].Data = append([]byte(nil), recs[0].Data...)
	other[0].Data[len(other[0].Data)-1] ^= 1 // the nonce: another game
	cases := []struct {
		name string
		recs []lockstep.Record
		ok   bool
	}{
		{"the honest log", recs, true},
		{"a bad signature in record 5", tampered(5), false},
		{"a bad signature in the last record", tampered(len(recs) - 1), false},
		{"another game's setup", other, false},
		{"a second setup", append(append([]lockstep.Record(nil), recs[:3]...), recs[0]), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, err := savegame.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			s := &NetSession{q: newQueue(nil), dir: dir, names: map[peer.ID]string{}, log: slog.New(slog.DiscardHandler)}
			defer s.q.close()
			go func() {
				for range s.q.out {
				}
			}()
			sp := &spectator{s: s, lobby: "t", bad: map[peer.ID]string{}, names: map[peer.ID]string{}}
			sp.run.Game = v.GameID
			err = sp.take("player", watchAnswer{Status: watchOK, Total: uint32(len(c.recs)), Records: c.recs})
			if (err == nil) != c.ok {
				t.Fatalf("take: %v, want ok %v", err, c.ok)
			}
			if c.ok && (!sp.over || sp.last.History != v.History) {
				t.Fatalf("the honest log: over %v, history %x, want %x", sp.over, sp.last.History, v.History)
			}
			if sp.log != nil {
				sp.log.Close()
			}
		})
	}
}

// BenchmarkWatchServerAnswer: what one watcher's request costs the
// player it watches, without the network: a batch of a finished game's
// records from a random point (an answer while catching up), and one
// turn's records (an answer when caught up).
func BenchmarkWatchServerAnswer(b *testing.B) {
	data, err := os.ReadFile("../lockstep/testdata/game.log")
	if err != nil {
		b.Fatal(err)
	}
	recs, err := lockstep.ParseLog(data)
	if err != nil {
		b.Fatal(err)
	}
	setup, _ := lockstep.DecodeSetup(recs[0].Data)
	for _, c := range []struct {
		name string
		back int
	}{{"catching-up", len(recs)}, {"one-turn", 5}} {
		b.Run(c.name, func(b *testing.B) {
			srv := newWatchServer(setup.GameID(), true, recs)
			srv.gather = 0
			clk := &stillClock{at: time.Unix(1_800_000_000, 0)}
			srv.now = clk.now
			from := uint32(len(recs) - c.back)
			req := encodeWatchRequest(watchRequest{Game: setup.GameID(), From: from, Name: "zoe"})
			ctx := context.Background()
			n := 0
			for b.Loop() {
				clk.at = clk.at.Add(time.Second)
				a := srv.answer(ctx, "watcher", req)
				n += len(a)
			}
			b.ReportMetric(float64(n)/float64(b.N), "bytes/answer")
		})
	}
}

// memLog is a lockstep.Log in memory that counts its syncs.
type memLog struct{ recs, synced int }

func (l *memLog) Write(recs []lockstep.Record) error { l.recs += len(recs); return nil }
func (l *memLog) Sync() error                        { l.synced = l.recs; return nil }

// A player serves its watchers only what its log made durable: records
// written since the last sync wait for it (a machine crash could take
// them, and the restored node sign others in their place).
func TestWatchServerServesOnlyWhatIsDurable(t *testing.T) {
	recs, v := finishedLog(t)
	srv, clk, _ := testServer(t, nil)
	srv.gid = v.GameID
	lg := watchLog{Log: &memLog{}, srv: srv}
	total := func() uint32 {
		clk.at = clk.at.Add(time.Second)
		a, ok := ask(t, srv, "zoe", encodeWatchRequest(watchRequest{Game: v.GameID, Name: "zoe"}))
		if !ok {
			t.Fatal("no answer")
		}
		return a.Total
	}
	if err := lg.Write(recs[:10]); err != nil {
		t.Fatal(err)
	}
	if n := total(); n != 0 {
		t.Fatalf("served %d records before any sync", n)
	}
	if err := lg.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := lg.Write(recs[10:15]); err != nil {
		t.Fatal(err)
	}
	if n := total(); n != 10 {
		t.Fatalf("served %d records, 10 were synced", n)
	}
	_ = lg.Sync()
	if n := total(); n != 15 {
		t.Fatalf("served %d records after the second sync, want 15", n)
	}
}

// A watcher's chat line reaches the player and its other watchers only
// when the table allows watchers to chat (the creator's choice).
func TestWatchServerChatIsTheCreatorsChoice(t *testing.T) {
	recs, v := finishedLog(t)
	for _, allow := range []bool{true, false} {
		srv, clk, _ := testServer(t, recs)
		srv.allowChat = allow
		var said []string
		srv.onSay = func(_ peer.ID, name, text string) { said = append(said, name+": "+text) }
		clk.at = clk.at.Add(time.Second)
		ask(t, srv, "zoe", encodeWatchRequest(watchRequest{Game: v.GameID, Name: "zoe", Say: "nice move"}))
		clk.at = clk.at.Add(time.Second)
		a, _ := ask(t, srv, "yan", encodeWatchRequest(watchRequest{Game: v.GameID, Name: "yan"}))
		got := len(said) == 1 && said[0] == "zoe: nice move" && len(a.Chat) == 1 && a.Chat[0] == (watchChat{From: "zoe (watching)", Text: "nice move"})
		if none := len(said) == 0 && len(a.Chat) == 0; got != allow || (!allow && !none) {
			t.Errorf("watchers may chat %v: the player heard %v, the other watcher %v", allow, said, a.Chat)
		}
	}
}

// Every watcher is served the same bytes, each record encoded once: 8
// watchers asking from different records, while the log grows sync by
// sync, get exactly the log file's framing of the records they asked
// for, and the server holds one encoding of each record.
func TestWatchServerEncodesEachRecordOnce(t *testing.T) {
	recs, v := finishedLog(t)
	srv, clk, _ := testServer(t, nil)
	srv.gid = v.GameID
	lg := watchLog{Log: &memLog{}, srv: srv}
	from := make([]uint32, 8)
	for written := 0; written < len(recs); {
		step := min(37, len(recs)-written)
		if err := lg.Write(recs[written : written+step]); err != nil {
			t.Fatal(err)
		}
		written += step
		_ = lg.Sync()
		for w := range from {
			clk.at = clk.at.Add(time.Second)
			name := fmt.Sprintf("w%d", w)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			b := srv.answer(ctx, peer.ID(name), encodeWatchRequest(watchRequest{Game: v.GameID, From: from[w], Name: name}))
			cancel()
			a, err := decodeWatchAnswer(b)
			if err != nil || a.Status != watchOK || a.From != from[w] {
				t.Fatalf("%s from %d: answer %+v, %v", name, from[w], a, err)
			}
			to := int(from[w]) + len(a.Records)
			head := encodeWatchAnswer(watchAnswer{Status: a.Status, Total: a.Total, From: a.From, ChatNext: a.ChatNext, Chat: a.Chat})
			if want := lockstep.EncodeRecords(recs[from[w]:to]...); string(b[len(head):]) != string(want) {
				t.Fatalf("%s: records %d to %d are not the log's framing of them", name, from[w], to)
			}
			// Watchers move at different speeds: some take everything,
			// some one record at a time.
			from[w] = uint32(min(to, int(from[w])+1+w*w*5))
		}
	}
	if n := len(srv.offs) - 1; n != len(recs) || len(srv.enc) != len(lockstep.EncodeRecords(recs...)) {
		t.Fatalf("the server holds %d encoded records in %d bytes, want %d records once", n, len(srv.enc), len(recs))
	}
}

// A paused player's server is drained before the program may stop: drain
// waits while a watcher heard lately lacks records it has not been sent,
// and is done once it was sent them (a watcher gone quiet does not hold
// it up past watcherIdle).
func TestWatchServerDrain(t *testing.T) {
	recs, v := finishedLog(t)
	srv, clk, _ := testServer(t, recs)
	clk.at = clk.at.Add(time.Second)
	if _, ok := ask(t, srv, "zoe", encodeWatchRequest(watchRequest{Game: v.GameID, From: uint32(len(recs)), Name: "zoe"})); !ok {
		t.Fatal("no answer")
	}
	clk.at = clk.at.Add(time.Second)
	a, _ := ask(t, srv, "yan", encodeWatchRequest(watchRequest{Game: v.GameID, Name: "yan"}))
	srv.close()
	ctx := context.Background()
	if int(a.From)+len(a.Records) < len(recs) {
		if srv.drain(ctx, 50*time.Millisecond) {
			t.Fatal("drained with yan sent only part of the log")
		}
	}
	for from := uint32(len(a.Records)); from < uint32(len(recs)); {
		clk.at = clk.at.Add(time.Second)
		a, _ = ask(t, srv, "yan", encodeWatchRequest(watchRequest{Game: v.GameID, From: from, Name: "yan"}))
		from += uint32(len(a.Records))
	}
	if !srv.drain(ctx, time.Second) {
		t.Fatal("not drained with every watcher sent the whole log")
	}
	srv.add(recs[:1])
	srv.commit()
	if srv.drain(ctx, 50*time.Millisecond) {
		t.Fatal("drained with a record no watcher was sent")
	}
	clk.at = clk.at.Add(watcherIdle)
	if !srv.drain(ctx, time.Second) {
		t.Fatal("watchers gone quiet hold up the drain")
	}
}

// A watcher close behind that asks again as soon as it is answered gets
// a few answers a second, not one a commit: each answer waits what is
// left of a gather since its last. Commits every 2 ms for 400 ms (a
// busy table) and a watcher polling flat out: at most one answer per
// gather (40 ms here) and never a strike; before, most polls found a
// commit made during their round trip and were answered at once, each
// answer a stream and its frames on the player's cores.
func TestWatchServerAnswersAFewTimesASecond(t *testing.T) {
	recs, v := finishedLog(t)
	srv, _, cut := testServer(t, recs[:10])
	srv.gid = v.GameID
	srv.gather = 40 * time.Millisecond
	const busy = 400 * time.Millisecond
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for i := 10; i < len(recs); i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			srv.add(recs[i : i+1])
			srv.commit()
		}
	}()
	defer close(stop)
	from, answers := uint32(0), 0
	for start := time.Now(); time.Since(start) < busy; {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		b := srv.answer(ctx, "zoe", encodeWatchRequest(watchRequest{Game: v.GameID, Name: "zoe", From: from}))
		cancel()
		a, err := decodeWatchAnswer(b)
		if err != nil || a.Status != watchOK {
			t.Fatalf("answer %d: %+v, %v (struck: %d)", answers, a, err, srv.Stats().Strikes)
		}
		from = a.Total
		answers++
		time.Sleep(time.Millisecond) // the LAN's round trip: commits come meanwhile
	}
	if max := int(busy/srv.gather) + 2; answers > max {
		t.Errorf("%d answers in %v, want at most %d (one a gather)", answers, busy, max)
	}
	if st := srv.Stats(); st.Strikes != 0 || len(*cut) != 0 {
		t.Errorf("the honest watcher was struck %d times, cut off %d", st.Strikes, len(*cut))
	}
}
