package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/testkit"
	"aeroplane/lockstep"
	"aeroplane/web/client"

	"github.com/gorilla/websocket"
)

// wsSocket is a test's browser: client.Socket over a gorilla client.
type wsSocket struct {
	c    *websocket.Conn
	recv chan []byte
}

func dialSocket(t testing.TB, url string) *wsSocket {
	t.Helper()
	origin := strings.TrimSuffix(strings.Replace(url, "ws://", "http://", 1), "/ws")
	c, _, err := websocket.DefaultDialer.Dial(url, map[string][]string{"Origin": {origin}})
	if err != nil {
		t.Fatal(err)
	}
	s := &wsSocket{c: c, recv: make(chan []byte, 64)}
	go func() {
		defer close(s.recv)
		for {
			_, msg, err := c.ReadMessage()
			if err != nil {
				return
			}
			s.recv <- msg
		}
	}()
	t.Cleanup(func() { c.Close() })
	return s
}

func (s *wsSocket) Send(msg []byte) error { return s.c.WriteMessage(websocket.BinaryMessage, msg) }
func (s *wsSocket) Recv() <-chan []byte   { return s.recv }

// TestGameOverWebSocket: a browser player (its key made on its side, its
// node behind client.Link) and the serving program's player (its node
// behind web.Link) play a whole game with a bot over the game socket, and
// both reach the same end and history hash.
func TestGameOverWebSocket(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a stuck game, not a slow one
	defer cancel()
	hostKey, hostID := testkit.Key(1), testkit.ID(1)
	link := NewLink(ctx, hostID)
	joined := make(chan *Conn, 1)
	srv, err := Listen(Options{Addr: "127.0.0.1:0", Players: func(c *Conn) { link.Add(c); joined <- c }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URLs()[0], "http") + "ws"

	browser, err := client.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	sock := dialSocket(t, url)
	if err := client.Join(ctx, sock, browser); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-joined:
		if c.Peer() != browser.ID {
			t.Fatalf("server sees %s, the browser is %s", c.Peer(), browser.ID)
		}
	case <-ctx.Done():
		t.Fatal("the server never took the browser")
	}

	setup := lockstep.Setup{Version: lockstep.Version, Name: "phones", Seats: []lockstep.Seat{
		{Colour: engine.Red, Player: hostID}, {Colour: engine.Blue, Bot: engine.BotKinds()[0]}, {Colour: engine.Yellow, Player: browser.ID}}}
	hostNode, err := lockstep.NewNode(lockstep.Config{Setup: setup, Self: hostID, Key: hostKey, AutoRoll: true, Entropy: [32]byte{1}})
	if err != nil {
		t.Fatal(err)
	}
	webNode, _, err := browser.NewNode(setup, true)
	if err != nil {
		t.Fatal(err)
	}
	blink := client.NewLink(sock, nil)
	go blink.Run(ctx)

	states := make([]lockstep.State, 2)
	errs := make([]error, 2)
	done := make(chan int, 2)
	for i, pair := range []struct {
		n *lockstep.Node
		l lockstep.Link
	}{{hostNode, link}, {webNode, blink}} {
		var d *lockstep.Driver
		d, err = lockstep.NewDriver(pair.n, lockstep.DriverConfig{Link: pair.l, Log: discardLog{}, Linger: -1, Tick: 20 * time.Millisecond,
			OnReady: func(rd lockstep.Ready) {
				for _, e := range rd.Events {
					if e.Kind == lockstep.EventYourMove {
						m := e.Moves[0]
						go d.Do(func(n *lockstep.Node) error { return n.Choose(m) })
					}
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		go func() { states[i], errs[i] = d.Run(ctx); done <- i }()
	}
	<-done
	<-done
	for i, st := range states {
		if errs[i] != nil || st.Phase != lockstep.PhaseOver {
			t.Fatalf("player %d: phase %v, err %v", i, st.Phase, errs[i])
		}
	}
	if states[0].History != states[1].History {
		t.Fatalf("history %x (host) vs %x (browser)", states[0].History, states[1].History)
	}
	t.Logf("game over, history %x, %s", states[0].History[:8], fmt.Sprint(states[0].Pos.Ranking()))
}

type discardLog struct{}

func (discardLog) Write([]lockstep.Record) error { return nil }
func (discardLog) Sync() error                   { return nil }
