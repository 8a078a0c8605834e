package session

import (
	"context"
	"sync"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/ui"
	"aeroplane/web/client"
)

// TestWebPlayerAwayAtItsMoveWaited shows a residual (PROTOCOL.md, "A web
// player"): a web player whose socket closes while it is to choose (the
// phone locked at its move) is waited for a person's whole choosing
// time (ChooseTicks = ChoosePerAbsent × AbsentTicks) before the others
// vote it absent, not the short wait of a player known to be gone:
// the serving program saw the socket close at once, but its word is
// not taken (it could cut a thinking person short). With AbsentTicks 5
// of 100 ms the choosing time is 10 s, the short wait 0.5 s; the vote
// comes no sooner than half the choosing time after the close (the wait
// began at the roll, just before).
func TestWebPlayerAwayAtItsMoveWaited(t *testing.T) {
	t.Parallel()
	if !netlab.Enter(t) {
		return
	}
	const absentTicks, tick = 5, 100 * time.Millisecond
	fast := func(o *NetOptions) { o.AbsentTicks = absentTicks }
	a, b := newNetTestWith(t, "Ann", fast), newNetTestWith(t, "Bob", fast)
	srv := servePages(t, a)
	openTableWithBot(t, a)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a hang guard
	defer cancel()
	wendy := newBrowser(t)
	var mu sync.Mutex
	var closedAt, votedAt time.Time
	page := func() {
		sock, err := dialWeb(srv.URLs()[0])
		if err != nil {
			t.Error(err)
			return
		}
		defer sock.Close()
		_, _ = client.Play(ctx, sock, wendy, client.GameConfig{Name: "Wendy",
			OnTable: func(tb client.Table) {
				if me, ok := tb.Seat(wendy.ID.String()); ok && !me.Ready {
					_ = client.SendLobby(sock, client.LobbyCmd{T: client.CmdReady, Ready: true})
				}
			},
			AskMove: func([]engine.Move, func(engine.Move) error) {
				mu.Lock()
				if closedAt.IsZero() {
					closedAt = time.Now()
				}
				mu.Unlock()
				sock.Close() // the phone locks at its move
			}})
	}
	var once sync.Once
	onA := func(e ui.Event) {
		if u, ok := e.(ui.TableUpdate); ok && u.Seats[engine.Blue].Name == "Bob" {
			once.Do(func() { go page() })
		}
	}
	join := joinOnce(t, a, b)
	onB := func(e ui.Event) {
		join(e)
		if p, ok := e.(ui.Presence); ok && p.Name == "Wendy" && !p.Present {
			mu.Lock()
			if votedAt.IsZero() {
				votedAt = time.Now()
			}
			mu.Unlock()
		}
	}
	pa, pb := playBothAt(t, a, b, engine.Red, engine.Blue, onA, onB)
	checkBoth(t, pa, pb)
	mu.Lock()
	defer mu.Unlock()
	if closedAt.IsZero() || votedAt.IsZero() {
		t.Fatalf("the web player's socket closed at %v, Bob saw it absent at %v: want both", closedAt, votedAt)
	}
	choosing := time.Duration(lockstep.ChoosePerAbsent*absentTicks) * tick
	waited := votedAt.Sub(closedAt)
	if waited < choosing/2 {
		t.Fatalf("the web player away at its move was voted absent %v after its socket closed: want the person's choosing time (%v), the present wait", waited, choosing)
	}
	t.Logf("away at its move: voted absent %v after the socket closed (choosing time %v, a gone player's wait %v)", waited.Round(time.Millisecond), choosing, time.Duration(absentTicks)*tick)
}
