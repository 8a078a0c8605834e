package webtest

import (
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/websocket"
)

// Socket is one browser's game socket. Send may be called from several
// goroutines; Recv's channel closes when the socket does.
type Socket struct {
	c    *websocket.Conn
	mu   sync.Mutex
	recv chan []byte
}

// Dial opens the game socket of page (the page's URL, "http://ADDR/"),
// sending the page's own origin as a browser does; the response is the
// server's answer when the upgrade is refused.
func Dial(page string) (*Socket, *http.Response, error) {
	c, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(page, "http")+"ws",
		map[string][]string{"Origin": {strings.TrimSuffix(page, "/")}})
	if err != nil {
		return nil, res, err
	}
	s := &Socket{c: c, recv: make(chan []byte, 256)}
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
	return s, res, nil
}

// Send writes one binary frame.
func (s *Socket) Send(msg []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.c.WriteMessage(websocket.BinaryMessage, msg)
}

// Recv is the frames received, in order.
func (s *Socket) Recv() <-chan []byte { return s.recv }

// Close closes the socket.
func (s *Socket) Close() error { return s.c.Close() }
