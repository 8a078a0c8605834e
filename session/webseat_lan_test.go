package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/internal/webtest"
	"aeroplane/lockstep"
	"aeroplane/ui"
	"aeroplane/ui/i18n"
	"aeroplane/web"
	"aeroplane/web/client"
)

func dialWebSeat(t *testing.T, page string) *webtest.Socket {
	t.Helper()
	s, err := dialWeb(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// servePages serves s's web players' sockets on loopback until the test
// ends.
func servePages(t *testing.T, s *NetSession) *web.Server {
	t.Helper()
	srv, err := web.Listen(web.Options{Addr: "127.0.0.1:0", Players: s.ServeWeb})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// openTableWithBot has s open a table with a random bot at Yellow.
func openTableWithBot(t *testing.T, s *NetSession) {
	t.Helper()
	if err := s.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeat(engine.Yellow, "random"); err != nil {
		t.Fatal(err)
	}
}

// newBrowser is a fresh browser's key.
func newBrowser(t *testing.T) *client.Identity {
	t.Helper()
	id, err := client.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func dialWeb(page string) (*webtest.Socket, error) {
	s, _, err := webtest.Dial(page)
	return s, err
}

// webPerson is a person at a browser served by a program at the table:
// it sits down once Bob has, asks for Bob's colour (refused: the table
// keeps its seat), and says ready whenever its seat is not.
type webPerson struct {
	t        *testing.T
	s        client.Socket
	id       string
	sat      bool
	askedB   bool
	refused  bool
	seatSeen client.TablePlayer
	others   []string // the other names at the table, as it last saw them
	said     bool
	triedBob bool // it first asks for the name Bob has (refused)
	nameTook bool // the refusal came, naming why
	mu       sync.Mutex
	heard    []client.ChatMsg // the table's chat, as the serving program handed it
}

func (p *webPerson) onChat(m client.ChatMsg) {
	p.mu.Lock()
	p.heard = append(p.heard, m)
	p.mu.Unlock()
}

func (p *webPerson) onTable(tb client.Table) {
	if tb.Error != "" {
		if strings.Contains(tb.Error, "already plays here") && !p.nameTook {
			p.nameTook = true
			if err := client.SendLobby(p.s, client.LobbyCmd{T: client.CmdSit, Name: "Wendy"}); err != nil {
				p.t.Errorf("web lobby sit: %v", err)
			}
			return
		}
		if p.askedB {
			p.refused = true
		}
		if _, ok := tb.Seat(p.id); !ok {
			p.sat = false // a sit before the table opened: again
		}
		return
	}
	seat, seated := tb.Seat(p.id)
	p.others = p.others[:0]
	bob := false
	for _, pl := range tb.Players {
		if pl.ID != p.id {
			p.others = append(p.others, pl.Name)
		}
		bob = bob || pl.Name == "Bob"
	}
	send := func(c client.LobbyCmd) {
		if err := client.SendLobby(p.s, c); err != nil {
			p.t.Errorf("web lobby %s: %v", c.T, err)
		}
	}
	switch {
	case !seated && !p.sat && bob:
		p.sat = true
		name := "Wendy"
		if !p.triedBob {
			p.triedBob, name = true, "bob"
		}
		send(client.LobbyCmd{T: client.CmdSit, Name: name})
	case seated && !p.askedB:
		p.askedB = true
		send(client.LobbyCmd{T: client.CmdColour, Colour: "B"})
	case seated && !seat.Ready:
		send(client.LobbyCmd{T: client.CmdReady, Ready: true})
	}
	if seated {
		p.seatSeen = seat
		if !p.said {
			p.said = true
			if err := client.SendChat(p.s, webHello); err != nil {
				p.t.Errorf("web chat: %v", err)
			}
		}
	}
}

const webHello = "hello from the phone"

// A web player sits at a real LAN table through the program that serves
// it: one program (Ann's, the creator, or Bob's, her guest) serves the
// page's game socket, a browser (the client natively, over a real
// WebSocket) sits at Ann's table as Wendy, under its own key, beside Ann,
// Bob and a bot; the other program sees the person, not the laptop, and
// the three play to the end, the browser's frames relayed by its program
// as seat frames. All three end on one history, and the browser's own
// log verifies. A browser whose socket closes mid-game (the phone
// locked) is voted absent as any player, a bot flies its seat, and when
// it dials again its node, which kept its game, takes its seat back.
func TestWebPlayerAtLANTable(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	for _, tc := range []struct {
		name      string
		byCreator bool
		then      webThen
	}{
		{"served by the creator", true, webStays},
		{"served by a guest", false, webStays},
		{"away and back", true, webAway},
		{"page reloaded", false, webReloads},
		{"leaves", false, webLeaves},
	} {
		t.Run(tc.name, func(t *testing.T) { webPlayerAtLANTable(t, tc.byCreator, tc.then) })
	}
}

// webThen is what the web player does after its third choice.
type webThen int

const (
	webStays  webThen = iota
	webAway           // its socket closes; it dials again once it is seen absent
	webLeaves         // it leaves the game for good (a bot flies its seat)
	// its page is reloaded: node, socket and memory gone; once it is seen
	// absent a new page on the same storage takes its seat from what was
	// kept there (client.Keeper)
	webReloads
)

// webPlayerAtLANTable plays TestWebPlayerAtLANTable's game, the web
// player served by the table's creator (Ann) or by a guest (Bob), doing
// then after its third choice.
func webPlayerAtLANTable(t *testing.T, byCreator bool, then webThen) {
	away, leaves, reloads := then == webAway || then == webReloads, then == webLeaves, then == webReloads
	// Away, the others wait for the web player's move before they vote
	// it absent: ChoosePerAbsent × AbsentTicks ticks (5 s here).
	fast := func(o *NetOptions) {
		if away {
			o.AbsentTicks = 5
		}
	}
	a, b := newNetTestWith(t, "Ann", fast), newNetTestWith(t, "Bob", fast)
	server := b
	if byCreator {
		server = a
	}
	srv := servePages(t, server)
	openTableWithBot(t, a)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard
	defer cancel()
	storage := &client.MapStore{} // the browser's localStorage
	browser, err := client.NewKeeper(storage).Identity()
	if err != nil {
		t.Fatal(err)
	}
	sock := dialWebSeat(t, srv.URLs()[0])
	person := &webPerson{t: t, s: sock, id: browser.ID.String()}
	lg := client.NewMemLog()
	gone, back := make(chan struct{}), make(chan struct{}) // Wendy away; the other program saw it
	var goneOnce, backOnce sync.Once
	returned := make(chan struct{}) // the other program saw Wendy back
	var returnedOnce sync.Once
	var redial func(context.Context) (client.Socket, error)
	if away && !reloads {
		redial = func(ctx context.Context) (client.Socket, error) {
			select {
			case <-back:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return dialWeb(srv.URLs()[0])
		}
	}
	type end struct {
		st  lockstep.State
		err error
	}
	web := make(chan end, 1)
	var asked atomic.Int32
	var game *client.Game
	pageCtx, reload := context.WithCancel(ctx)
	defer reload()
	go func() {
		st, err := client.Play(pageCtx, sock, browser, client.GameConfig{Log: lg, Keep: client.NewKeeper(storage), OnTable: person.onTable, OnChat: person.onChat, Redial: redial,
			OnStart: func(g *client.Game) { game = g },
			AskMove: func(moves []engine.Move, choose func(engine.Move) error) {
				n := asked.Add(1)
				if n == 3 && reloads {
					goneOnce.Do(func() { close(gone); reload(); sock.Close() })
					return
				}
				if n == 3 && away {
					goneOnce.Do(func() { close(gone); sock.Close() })
				}
				if n == 3 && leaves {
					go func() {
						if err := game.Leave(); err != nil {
							t.Errorf("the web player's leave: %v", err)
						}
					}()
					return
				}
				go func() {
					if err := choose(moves[len(moves)-1]); err != nil {
						t.Errorf("the web player's choice: %v", err)
					}
				}()
			}})
		if reloads && errors.Is(err, context.Canceled) {
			st, err = reloadedPage(ctx, t, srv.URLs()[0], storage, browser, back, &asked, person.onChat, func(l *client.MemLog) { lg = l })
		}
		web <- end{st, err}
	}()

	var wendyAt engine.Colour = engine.NoColour
	unmarked := 0       // tables that showed Wendy not as a web player
	var presence []bool // the other program's word on Wendy, in order
	sawLeft := false
	sawWendy := func(e ui.Event) {
		if l, ok := e.(ui.Left); ok && l.Name == "Wendy" && l.Colour == engine.Green {
			sawLeft = true
		}
		if p, ok := e.(ui.Presence); ok && p.Name == "Wendy" {
			presence = append(presence, p.Present)
			if !p.Present {
				backOnce.Do(func() { close(back) })
			} else {
				returnedOnce.Do(func() { close(returned) })
			}
		}
		if u, ok := e.(ui.TableUpdate); ok {
			for c, st := range u.Seats {
				if st.Name == "Wendy" && st.PeerID == browser.ID.String() && st.Kind == ui.SeatHuman && !st.You {
					wendyAt = engine.Colour(c)
					if !st.Web {
						unmarked++ // the terminal would list her with no phone mark
					}
				}
			}
		}
	}
	// The program that does not serve her sees the person.
	onA, onB := sawWendy, func(ui.Event) {}
	if byCreator {
		onA, onB = func(ui.Event) {}, sawWendy
	}
	// Away, the laptops' people take their time over their choices
	// while the web player is gone (at most 5 s each, well within the
	// person's wait of 10 s), so the game is still on when it comes back.
	think := func(e ui.Event) {
		if r, ok := e.(ui.Rolled); ok && r.YouChoose && away {
			select {
			case <-gone:
			default:
				return
			}
			select {
			case <-returned:
			case <-time.After(5 * time.Second):
			}
		}
	}
	chatted := false
	annSaw, bobSaw := onA, onB
	onB = func(e ui.Event) { bobSaw(e); think(e) }
	onA = func(e ui.Event) {
		annSaw(e)
		think(e)
		if _, ok := e.(ui.GameStarted); ok && !chatted {
			chatted = true
			if err := a.Chat("good luck"); err != nil {
				t.Errorf("Ann's chat: %v", err)
			}
		}
	}
	join := joinOnce(t, a, b)
	pa, pb := playBothAt(t, a, b, engine.Red, engine.Blue, onA, func(e ui.Event) {
		onB(e)
		join(e)
	})
	checkBoth(t, pa, pb)
	w := <-web
	if leaves {
		// It played until it left; the others finished with a bot in its
		// seat, and its log, cut where it left, still verifies.
		vw, err := lockstep.Verify(lg.Bytes())
		if !errors.Is(w.err, lockstep.ErrLeft) || err != nil || len(vw.Cheats) != 0 || !sawLeft {
			t.Fatalf("the web player who left: %v; its log %v (%v); the other program saw it leave: %v", w.err, vw, err, sawLeft)
		}
		return
	}
	if w.err != nil || w.st.Phase != lockstep.PhaseOver {
		t.Fatalf("the web player: phase %s, err %v", w.st.Phase, w.err)
	}
	data, err := os.ReadFile(pa.over.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	va, err := lockstep.Verify(data)
	if err != nil {
		t.Fatal(err)
	}
	vw, err := lockstep.Verify(lg.Bytes())
	if err != nil {
		t.Fatalf("the web player's log does not verify: %v", err)
	}
	// Away, the browser's node was cut off while it kept running: coming
	// back, it may meet the others' state hashes of rolls it had not yet
	// settled as they did (it was voted absent meanwhile) and logs them
	// as state-mismatch before it takes their branch, as a laptop whose
	// network dropped does (lockstep's, not the relay's: the others' logs
	// hold no cheat, checkBoth). Nothing else may show, and nothing at
	// all with a browser that stayed.
	var unexpected []lockstep.Event
	for _, e := range vw.Cheats {
		if !away || e.Kind != lockstep.EventStateMismatch {
			unexpected = append(unexpected, e)
		}
	}
	if away {
		t.Logf("the web player's own log: %v", vw.Cheats)
	}
	if w.st.History != va.History || vw.History != va.History || vw.Phase != lockstep.PhaseOver || len(unexpected) != 0 {
		t.Fatalf("the web player ended on %x (log %x, %s, cheats %v), Ann on %x", w.st.History[:6], vw.History[:6], vw.Phase, vw.Cheats, va.History[:6])
	}
	if unmarked != 0 {
		t.Errorf("the other program showed Wendy %d times without the web player's mark", unmarked)
	}
	if wendyAt != engine.Green || person.seatSeen.Colour != "G" || !person.seatSeen.Web || !person.refused {
		t.Fatalf("the other program saw Wendy at %s; Wendy saw herself at %+v, refused Blue: %v", wendyAt, person.seatSeen, person.refused)
	}
	if !strings.Contains(strings.Join(person.others, ","), "Bob") || !person.nameTook {
		t.Fatalf("Wendy's table lists %v; her first name, Bob's, refused: %v", person.others, person.nameTook)
	}
	if asked.Load() == 0 {
		t.Fatal("the web player was never asked to choose")
	}
	// Wendy's line reached both programs under her name; Ann's reached
	// Wendy under Ann's.
	for _, p := range []*netPlayer{pa, pb} {
		if !slices.ContainsFunc(p.chats, func(l ui.ChatLine) bool { return l.From == "Wendy" && l.Text == webHello }) {
			t.Errorf("%s's chat %+v lacks Wendy's line", p.s.name, p.chats)
		}
	}
	person.mu.Lock()
	heard := slices.Clone(person.heard)
	person.mu.Unlock()
	if !slices.ContainsFunc(heard, func(m client.ChatMsg) bool { return m.From == "Ann" && m.Text == "good luck" && m.Colour == "R" }) {
		t.Errorf("Wendy heard %+v, not Ann's good luck", heard)
	}
	if away {
		select {
		case <-gone:
		default:
			t.Fatal("the web player's socket never closed: the game was too short")
		}
		if len(presence) < 2 || presence[0] || !presence[len(presence)-1] {
			t.Fatalf("the other program saw Wendy's presence go %v, want absent and back", presence)
		}
		if reloads && storage.Len() != 1 {
			t.Fatalf("the browser's storage holds %d keys after the game, want its key alone (the game forgotten)", storage.Len())
		}
	} else if len(presence) != 0 {
		t.Fatalf("Wendy was absent: %v", presence)
	}
	t.Logf("one history %x after %d rolls; Wendy chose %d times", va.History[:8], va.Rolls, asked.Load())
}

// Browsers that come and go (a page reloaded makes a new key each time)
// never fill the program's seat records: one whose socket closed outside
// a game is forgotten, and the next browser is still served.
func TestWebSeatsForgottenWhenGone(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := newNetTest(t, "Ann")
	srv := servePages(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := range maxWebSeats + 4 {
		sock, err := dialWeb(srv.URLs()[0])
		if err != nil {
			t.Fatal(err)
		}
		id, err := client.NewIdentity()
		if err != nil {
			t.Fatal(err)
		}
		if err := client.Join(ctx, sock, id); err != nil {
			t.Fatalf("browser %d: %v", i, err)
		}
		// Served: the program holds its seat record until it goes.
		for !a.hasWebSeat(id) {
			if ctx.Err() != nil {
				t.Fatalf("browser %d was never taken", i)
			}
			time.Sleep(5 * time.Millisecond)
		}
		sock.Close()
		for a.hasWebSeat(id) {
			if ctx.Err() != nil {
				t.Fatalf("browser %d's seat record outlived its socket", i)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

func (s *NetSession) hasWebSeat(id *client.Identity) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.webs[id.ID] != nil
}

// A browser that floods lobby commands is answered for a burst only: the
// rest are dropped (and counted), never a refusal, a lobby call and a log
// line each.
func TestWebSeatFloodBounded(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := newNetTest(t, "Ann")
	srv := servePages(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sock := dialWebSeat(t, srv.URLs()[0])
	id := newBrowser(t)
	if err := client.Join(ctx, sock, id); err != nil {
		t.Fatal(err)
	}
	const sent = 200
	for range sent {
		// Not at a table: each one the program takes is refused.
		if err := client.SendLobby(sock, client.LobbyCmd{T: client.CmdReady, Ready: true}); err != nil {
			t.Fatal(err)
		}
	}
	answers := 0
	for quiet := time.After(time.Second); ; {
		select {
		case msg := <-sock.Recv():
			if f, err := client.DecodeFrame(msg); err == nil && f.Kind == client.KindLobby {
				answers++
			}
			continue
		case <-quiet:
		}
		break
	}
	a.mu.Lock()
	refused := a.webs[id.ID].refused.Load()
	a.mu.Unlock()
	if answers == 0 || answers > webSayBurst+5 || refused < sent-webSayBurst-5 {
		t.Fatalf("%d commands: %d answered, %d counted dropped; want at most a burst (%d) answered, the rest dropped", sent, answers, refused, webSayBurst)
	}
	t.Logf("%d commands: %d answered, %d dropped", sent, answers, refused)
}

// Bob's program dies mid-game (nothing marked) at a table with a web
// player Ann's program serves, and starts again on the same data: it
// takes the web player's seat frames from Ann's program again (the seat
// hosts are saved beside the log), and Ann, Bob and the web player end
// on one history.
func TestWebPlayerGameResumedLAN(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := newNetTest(t, "Ann")
	_, key := newID(t)
	dir := t.TempDir()
	same := func(o *NetOptions) { o.Key, o.DataDir = key, dir }
	b := newNetTestWith(t, "Bob", same)
	srv := servePages(t, a)
	openTableWithBot(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard
	defer cancel()
	browser := newBrowser(t)
	sock := dialWebSeat(t, srv.URLs()[0])
	person := &webPerson{t: t, s: sock, id: browser.ID.String(), triedBob: true}
	lg := client.NewMemLog()
	webEnd := make(chan lockstep.State, 1)
	go func() {
		st, err := client.Play(ctx, sock, browser, client.GameConfig{Log: lg, OnTable: person.onTable})
		if err != nil {
			t.Errorf("the web player: %v", err)
		}
		webEnd <- st
	}()

	crashed := make(chan struct{})
	bob := bobLoop(t, a, b, 6, func() {
		defer close(crashed)
		b.cancel() // the game and the owner stop; nothing is marked closed
		b.wg.Wait()
		if b.d != nil {
			b.d.Close()
		}
		b.t.Close()
		b.h.Close()
		b.q.close()
	})
	annDone := make(chan *netPlayer, 1)
	go (&netPlayer{s: a, c: &checker{t: t, you: engine.Red, autoRoll: true}}).run(t, nil, annDone)
	<-crashed
	<-bob
	b2 := newNetTestWith(t, "Bob", same)
	var bobLog string
	for bobLog == "" {
		select {
		case e := <-b2.Events():
			switch e := e.(type) {
			case ui.Rolled:
				if e.YouChoose {
					_ = b2.Choose(e.Moves[0])
				}
			case ui.GameOver:
				bobLog = e.LogPath
			}
		case <-ctx.Done():
			t.Fatal("the resumed Bob never saw the game end")
		}
	}
	var pa *netPlayer
	select {
	case pa = <-annDone:
	case <-ctx.Done():
		t.Fatal("Ann's game did not end")
	}
	if pa.err != nil {
		t.Fatal(pa.err)
	}
	st := <-webEnd
	var hist [][32]byte
	for _, data := range [][]byte{mustRead(t, pa.over.LogPath), mustRead(t, bobLog), lg.Bytes()} {
		v, err := lockstep.Verify(data)
		if err != nil || v.Phase != lockstep.PhaseOver {
			t.Fatalf("a log: %v, %v", v, err)
		}
		hist = append(hist, v.History)
	}
	if hist[0] != hist[1] || hist[1] != hist[2] || st.History != hist[0] {
		t.Fatalf("Ann %x, the resumed Bob %x, the web player %x (its state %x)", hist[0][:6], hist[1][:6], hist[2][:6], st.History[:6])
	}
}

// reloadedPage is the web player's page after a reload: the same
// storage, once the others saw its seat go (back); its key and game come
// from what was kept there, over a new socket. newLog is handed the
// page's log (it starts from the kept one).
func reloadedPage(ctx context.Context, t *testing.T, page string, storage client.Store, was *client.Identity, back <-chan struct{}, asked *atomic.Int32, onChat func(client.ChatMsg), newLog func(*client.MemLog)) (lockstep.State, error) {
	select {
	case <-back:
	case <-ctx.Done():
		return lockstep.State{}, ctx.Err()
	}
	id, err := client.NewKeeper(storage).Identity()
	if err != nil || id.ID != was.ID {
		return lockstep.State{}, fmt.Errorf("the reloaded page's key %v (%v), was %v", id.ID, err, was.ID)
	}
	s, err := dialWeb(page)
	if err != nil {
		return lockstep.State{}, err
	}
	defer s.Close()
	lg := client.NewMemLog()
	newLog(lg)
	return client.Play(ctx, s, id, client.GameConfig{Log: lg, Keep: client.NewKeeper(storage), OnChat: onChat,
		AskMove: func(moves []engine.Move, choose func(engine.Move) error) {
			asked.Add(1)
			go func() {
				if err := choose(moves[len(moves)-1]); err != nil {
					t.Errorf("the reloaded page's choice: %v", err)
				}
			}()
		}})
}

// TestWebRefusalsTranslated: every kind of refusal a browser's lobby
// command meets at a LAN table (ready before sitting, a name another
// person has, a colour taken, a command the program does not know)
// reaches the page in the language its commands name, in each of the
// terminal's seven, with its kind: the terminal's catalogue says it.
func TestWebRefusalsTranslated(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	a := newNetTest(t, "Ann")
	srv := servePages(t, a)
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sock := dialWebSeat(t, srv.URLs()[0])
	id := newBrowser(t)
	if err := client.Join(ctx, sock, id); err != nil {
		t.Fatal(err)
	}
	// answer sends msg and waits for the table's answer to it: the
	// refusal, or the table showing the seat (a command taken).
	answer := func(msg []byte) client.Table {
		t.Helper()
		time.Sleep(webSayEvery) // within the page's rate
		if err := sock.Send(msg); err != nil {
			t.Fatal(err)
		}
		for {
			select {
			case m := <-sock.Recv():
				f, err := client.DecodeFrame(m)
				if err != nil || f.Kind != client.KindLobby {
					continue
				}
				tb, err := client.ParseTable(f.Data)
				if err != nil {
					t.Fatal(err)
				}
				if _, seated := tb.Seat(id.ID.String()); tb.Error != "" || seated {
					return tb
				}
			case <-ctx.Done():
				t.Fatal("no answer from the table")
			}
		}
	}
	cmd := func(c client.LobbyCmd) []byte {
		msg, err := client.EncodeLobby(c)
		if err != nil {
			t.Fatal(err)
		}
		return msg
	}
	check := func(lang, key string, got client.Table, args ...any) {
		t.Helper()
		want := ui.M(key, args...).In(i18n.New(lang))
		if got.ErrorKey != key || got.Error != want {
			t.Errorf("%s: refused %q (%s), want %q (%s)", lang, got.Error, got.ErrorKey, want, key)
		}
		if lang != "en" && lang != "it" && lang != "pt" && englishRun.MatchString(got.Error) {
			t.Errorf("%s: %q shows English", lang, got.Error)
		}
	}
	langs := i18n.Languages()
	for _, lang := range langs {
		check(lang, "err.notseated", answer(cmd(client.LobbyCmd{T: client.CmdReady, Ready: true, Lang: lang})))
		check(lang, "err.personname.taken", answer(cmd(client.LobbyCmd{T: client.CmdSit, Name: "ann", Lang: lang})), "ann")
	}
	if tb := answer(cmd(client.LobbyCmd{T: client.CmdSit, Name: "Wendy"})); tb.Error != "" {
		t.Fatalf("sitting down: %s", tb.Error)
	}
	bad, err := client.EncodeFrame(nil, client.Frame{Kind: client.KindLobby, Data: []byte(`{"t":"dance"}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range langs {
		check(lang, "err.seattaken", answer(cmd(client.LobbyCmd{T: client.CmdColour, Colour: "R", Lang: lang})))
		check(lang, "err.webcmd", answer(bad))
	}
	// A language the catalogue lacks keeps the last one named.
	check("zh", "err.seattaken", answer(cmd(client.LobbyCmd{T: client.CmdColour, Colour: "R", Lang: strings.Repeat("x", 100)})))
}
