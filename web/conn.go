package web

import (
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/web/client"

	"github.com/gorilla/websocket"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The game socket (/ws) is gorilla/websocket: already in the module graph
// (libp2p's websocket transport uses it), maintained. Its Origin check
// (tableOrigin) with the IP-literal Host rule keeps other sites' pages off
// the socket, and lets on the page of another program of the table.

// Limits on a browser's socket: it is a peer like any other, so what it
// sends is bounded in size, rate of queueing and time.
const (
	maxConns     = 16               // browsers served at once
	inboxLen     = 256              // frames queued from one browser before it is cut off
	outboxLen    = 256              // frames queued to one browser; past it frames are dropped (re-sent later)
	authWait     = 10 * time.Second // hello to auth
	pingEvery    = 15 * time.Second
	silentCutoff = 45 * time.Second // no message or pong for this long: gone
)

// Inbound is a frame from a browser player.
type Inbound struct {
	From peer.ID // proven by the socket's auth
	To   peer.ID // "" for every player
	Kind p2p.Kind
	Data []byte
}

// Conn is one browser player's game socket, after it proved its key.
type Conn struct {
	ws      *websocket.Conn
	peer    peer.ID
	in      chan Inbound
	out     chan []byte
	done    chan struct{}
	once    sync.Once
	dropped atomic.Uint64
	log     *slog.Logger
}

// Peer is the browser player's peer ID (its key never left the browser).
func (c *Conn) Peer() peer.ID { return c.peer }

// Inbox is the browser's frames, in its order; closed when it is gone.
func (c *Conn) Inbox() <-chan Inbound { return c.in }

// Done is closed when the socket is gone.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Dropped counts frames not delivered to the browser (its queue was full)
// and messages from it that were not frames.
func (c *Conn) Dropped() uint64 { return c.dropped.Load() }

// Send queues a frame to the browser, from the player from; it never
// waits: a full queue drops the frame (lockstep re-sends what is missing).
func (c *Conn) Send(from peer.ID, kind p2p.Kind, data []byte) error {
	msg, err := client.EncodeFrame(nil, client.Frame{Kind: byte(kind), Peer: from, Data: data})
	if err != nil {
		return err
	}
	select {
	case <-c.done:
		return errors.New("web: the browser player's socket is closed")
	case c.out <- msg:
		return nil
	default:
		c.dropped.Add(1)
		return errors.New("web: the browser player's queue is full")
	}
}

// SendSetup tells the browser the game its seat is in (client.MsgSetup).
func (c *Conn) SendSetup(s lockstep.Setup) error { return c.SendRaw(client.EncodeSetup(s)) }

// SendRaw queues a message of web/client's wire, already encoded (a
// lobby table: client.EncodeLobby); like Send it never waits.
func (c *Conn) SendRaw(msg []byte) error {
	select {
	case <-c.done:
		return errors.New("web: the browser player's socket is closed")
	case c.out <- msg:
		return nil
	default:
		c.dropped.Add(1)
		return errors.New("web: the browser player's queue is full")
	}
}

// Close ends the socket.
func (c *Conn) Close() error {
	c.once.Do(func() { close(c.done); c.ws.Close() })
	return nil
}

// sockets serves /ws: hello, auth, then frames both ways.
type sockets struct {
	up      websocket.Upgrader
	players func(*Conn)
	log     *slog.Logger
	mu      sync.Mutex
	conns   map[*Conn]struct{}
	closed  bool
}

func newSockets(players func(*Conn), log *slog.Logger) *sockets {
	return &sockets{players: players, log: log, conns: map[*Conn]struct{}{},
		up: websocket.Upgrader{ReadBufferSize: 4 << 10, WriteBufferSize: 4 << 10, HandshakeTimeout: 5 * time.Second, CheckOrigin: tableOrigin}}
}

func (s *sockets) serve(w http.ResponseWriter, r *http.Request) {
	if s.players == nil {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	full := s.closed || len(s.conns) >= maxConns
	s.mu.Unlock()
	if full {
		http.Error(w, "this table serves no more browsers", http.StatusServiceUnavailable)
		return
	}
	ws, err := s.up.Upgrade(w, r, nil) // answers the error itself (bad Origin included)
	if err != nil {
		s.log.Debug("web: socket upgrade refused", "remote", r.RemoteAddr, "err", err)
		return
	}
	ws.SetReadLimit(client.MaxMessage)
	id, err := handshake(ws)
	if err != nil {
		s.log.Info("web: a browser failed to prove its key", "remote", r.RemoteAddr, "err", err)
		ws.Close()
		return
	}
	c := &Conn{ws: ws, peer: id, in: make(chan Inbound, inboxLen), out: make(chan []byte, outboxLen),
		done: make(chan struct{}), log: s.log}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ws.Close()
		return
	}
	s.conns[c] = struct{}{}
	s.mu.Unlock()
	go c.write()
	go func() {
		c.read()
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
	}()
	s.players(c)
}

func handshake(ws *websocket.Conn) (peer.ID, error) {
	hello, nonce, err := client.Hello()
	if err != nil {
		return "", err
	}
	ws.SetWriteDeadline(time.Now().Add(authWait))
	if err := ws.WriteMessage(websocket.BinaryMessage, hello); err != nil {
		return "", err
	}
	ws.SetReadDeadline(time.Now().Add(authWait))
	typ, msg, err := ws.ReadMessage()
	if err != nil {
		return "", err
	}
	if typ != websocket.BinaryMessage {
		return "", errors.New("auth is not a binary message")
	}
	return client.VerifyAuth(msg, nonce)
}

// read delivers the browser's frames until the socket fails; a browser
// that queues more than inboxLen frames unread is cut off (it floods).
func (c *Conn) read() {
	defer close(c.in)
	defer c.Close()
	c.ws.SetPongHandler(func(string) error { return c.ws.SetReadDeadline(time.Now().Add(silentCutoff)) })
	for {
		c.ws.SetReadDeadline(time.Now().Add(silentCutoff))
		typ, msg, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		f, err := client.DecodeFrame(msg)
		if typ != websocket.BinaryMessage || err != nil {
			c.dropped.Add(1)
			continue
		}
		select {
		case c.in <- Inbound{From: c.peer, To: f.Peer, Kind: p2p.Kind(f.Kind), Data: f.Data}:
		default:
			c.log.Warn("web: a browser player floods its socket: cut off", "peer", p2p.ShortID(c.peer))
			return
		}
	}
}

func (c *Conn) write() {
	t := time.NewTicker(pingEvery)
	defer t.Stop()
	defer c.Close()
	for {
		select {
		case <-c.done:
			return
		case msg := <-c.out:
			c.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if err := c.ws.WriteMessage(websocket.BinaryMessage, msg); err != nil {
				return
			}
		case <-t.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(5*time.Second)); err != nil {
				return
			}
		}
	}
}

// closeAll ends every socket (the server is closing).
func (s *sockets) closeAll() {
	s.mu.Lock()
	s.closed = true
	conns := make([]*Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}
