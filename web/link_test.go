package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"aeroplane/lockstep"
	"aeroplane/web/client"

	"github.com/gorilla/websocket"
)

// wsSocket is a test's browser: client.Socket over a gorilla client.
type wsSocket struct {
	c    *websocket.Conn
	recv chan []byte
}

func dialSocket(t testing.TB, page string) *wsSocket {
	t.Helper()
	url := "ws" + strings.TrimPrefix(page, "http") + "ws"
	c, _, err := websocket.DefaultDialer.Dial(url, map[string][]string{"Origin": {strings.TrimSuffix(page, "/")}})
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
	st, err := client.Play(ctx, dialSocket(t, table.url), browser, client.GameConfig{Log: lg})
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
	if _, res, err := websocket.DefaultDialer.Dial(url, map[string][]string{"Origin": {"http://evil.example"}}); err == nil || res == nil || res.StatusCode != 403 {
		t.Errorf("another site's page: err %v, response %v; want 403", err, res)
	}
	s := dialSocket(t, table.url)
	<-s.Recv() // hello
	s.Send([]byte{client.MsgAuth, 0, 0})
	if _, ok := <-s.Recv(); ok {
		t.Error("a bad auth was answered; want the socket closed")
	}
}
