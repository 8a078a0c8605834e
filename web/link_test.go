package web

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/internal/webtest"
	"aeroplane/lockstep"
	"aeroplane/web/client"

	"github.com/gorilla/websocket"
)

// dialSocket is a test's browser socket to page, closed when the test ends.
func dialSocket(t testing.TB, page string) *webtest.Socket {
	t.Helper()
	s, _, err := webtest.Dial(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestGameOverWebSocket: a browser player (its key made on its side, its
// node behind client.Link, client.Play) and the serving program's player
// (its node behind web.Link) play a whole game with a bot over the game
// socket, and both reach the same end and history hash.
func TestGameOverWebSocket(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a stuck game, not a slow one
	defer cancel()
	table := newTestTable(t, ctx, Options{})
	browser, err := client.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	lg := client.NewMemLog()
	var asked, refused atomic.Int32
	st, err := client.Play(ctx, dialSocket(t, table.url), browser, client.GameConfig{Log: lg,
		AskMove: func(moves []engine.Move, choose func(engine.Move) error) {
			asked.Add(1)
			go func() {
				// A move of another colour is no choice of this roll.
				if choose(engine.Move{Colour: engine.Red, Plane: 3}) != nil {
					refused.Add(1)
				}
				if err := choose(moves[len(moves)-1]); err != nil {
					t.Error(err)
				}
			}()
		}})
	if err != nil {
		t.Fatal(err)
	}
	host := <-table.result
	if host.err != nil || host.st.Phase.String() != "over" || st.Phase.String() != "over" {
		t.Fatalf("host %v %v, browser %v", host.st.Phase, host.err, st.Phase)
	}
	if host.st.History != st.History {
		t.Fatalf("history %x (host) vs %x (browser)", host.st.History, st.History)
	}
	if asked.Load() == 0 || refused.Load() != asked.Load() {
		t.Errorf("asked %d times, a wrong move refused %d times; want some, every time", asked.Load(), refused.Load())
	}
	v, err := lockstep.Verify(lg.Bytes())
	if err != nil || v.History != st.History || v.Phase != lockstep.PhaseOver {
		t.Fatalf("the browser's log: %v, %+v", err, v)
	}
	t.Logf("game over, history %x, ranking %v", st.History[:8], st.Pos.Ranking())
}

// A socket without the proof of its key, or one
// from another site's page, never reaches the table.
func TestSocketRefusals(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	table := newTestTable(t, ctx, Options{})
	url := "ws" + strings.TrimPrefix(table.url, "http") + "ws"
	for _, origin := range []string{"http://evil.example", "http://8.8.8.8:8080", "https://10.0.0.5", "http://10.0.0.5.evil.example", "null"} {
		if _, res, err := websocket.DefaultDialer.Dial(url, map[string][]string{"Origin": {origin}}); err == nil || res == nil || res.StatusCode != 403 {
			t.Errorf("a page of %s: err %v, response %v; want 403", origin, err, res)
		}
	}
	// The page of another program of a LAN table may dial in (a web
	// player moving its seat here: its serving program is gone).
	for _, origin := range []string{"http://192.168.1.20:8080", "http://[fe80::1]:8080", "http://10.0.0.5"} {
		ws, _, err := websocket.DefaultDialer.Dial(url, map[string][]string{"Origin": {origin}})
		if err != nil {
			t.Errorf("the page of a program at %s: %v", origin, err)
			continue
		}
		ws.Close()
	}
	s := dialSocket(t, table.url)
	<-s.Recv() // hello
	s.Send([]byte{client.MsgAuth, 0, 0})
	if _, ok := <-s.Recv(); ok {
		t.Error("a bad auth was answered; want the socket closed")
	}
}

// A browser that sends faster than the table reads is cut off once its
// queue is full, instead of growing the server's memory.
func TestSocketFloodCutOff(t *testing.T) {
	got := make(chan *Conn, 1)
	srv, err := Listen(Options{Addr: "127.0.0.1:0", Players: func(c *Conn) { got <- c }}) // nobody reads its Inbox
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := dialSocket(t, srv.URLs()[0])
	id, _ := client.NewIdentity()
	if err := client.Join(context.Background(), s, id); err != nil {
		t.Fatal(err)
	}
	c := <-got
	msg, _ := client.EncodeFrame(nil, client.Frame{Kind: client.KindGame, Data: []byte("frame")})
	for i := 0; i < 4*inboxLen; i++ {
		if s.Send(msg) != nil {
			break
		}
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a flooding browser was not cut off")
	}
	if n := len(c.Inbox()); n > inboxLen {
		t.Fatalf("%d frames queued, cap %d", n, inboxLen)
	}
	// What it queued is still there to read, then the inbox closes.
	n := 0
	for range c.Inbox() {
		n++
	}
	if n != inboxLen {
		t.Errorf("%d frames delivered before the cut, want the %d queued", n, inboxLen)
	}
}

// A browser whose socket drops is unreachable to the program's node; when
// it comes back (the same key, a new socket) it is reachable again and its
// frames flow on the new socket. Closing the server closes live sockets.
func TestLinkBrowserReturns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hostID := testkit.ID(1)
	link := NewLink(ctx, hostID)
	srv, err := Listen(Options{Addr: "127.0.0.1:0", Players: link.Add})
	if err != nil {
		t.Fatal(err)
	}
	id, _ := client.NewIdentity()
	reach := func(want bool) {
		t.Helper()
		select {
		case r := <-link.Reach():
			if r.Peer != id.ID || r.Up != want {
				t.Fatalf("reach %+v, want %s up=%v", r, id.ID, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no reach up=%v", want)
		}
	}
	frame := func(s *webtest.Socket, data string) {
		t.Helper()
		msg, _ := client.EncodeFrame(nil, client.Frame{Kind: client.KindGame, Data: []byte(data)})
		if err := s.Send(msg); err != nil {
			t.Fatal(err)
		}
		select {
		case f := <-link.Frames():
			if f.From != id.ID || string(f.Data) != data {
				t.Fatalf("frame %q from %s", f.Data, f.From)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no frame")
		}
	}
	first := dialSocket(t, srv.URLs()[0])
	if err := client.Join(ctx, first, id); err != nil {
		t.Fatal(err)
	}
	reach(true)
	frame(first, "before")
	first.Close()
	reach(false)
	if err := link.Send(id.ID, []byte("to nobody")); err != nil {
		t.Fatalf("sending to a player who is away: %v (want nothing sent, no error)", err)
	}

	second := dialSocket(t, srv.URLs()[0])
	if err := client.Join(ctx, second, id); err != nil {
		t.Fatal(err)
	}
	reach(true)
	frame(second, "after")
	if err := link.Send("", []byte("to all")); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-second.Recv():
		f, err := client.DecodeFrame(msg)
		if err != nil || f.Peer != hostID || string(f.Data) != "to all" {
			t.Fatalf("browser got %+v, %v", f, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the browser got nothing")
	}
	srv.Close()
	select {
	case _, ok := <-second.Recv():
		for ok {
			_, ok = <-second.Recv()
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the socket outlived the server's Close")
	}
}
