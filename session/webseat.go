package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"aeroplane/engine"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"
	"aeroplane/web"
	"aeroplane/web/client"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A web player is a seat this program hosts whose key lives in a
// browser (package web): at the table it is a person of its own (its own
// peer ID and name, its own ready and colour, said through this program:
// lobby.Control.SeatVia and the rest); in the game its node runs in the
// browser, and this program's Hub relays its frames both ways: to the
// other programs as seat frames (p2p.KindSeat) of that seat, and every
// frame for it to the browser. Every node checks the browser's
// signatures itself, so this program can delay or drop its frames
// (then it is voted absent, as anyone) but never speak for it.

// maxWebSeats bounds the browsers one program keeps a seat record for:
// as many as it serves sockets to at once.
const maxWebSeats = 16

// webGameQueue bounds a browser's game frames waiting for the relay.
const webGameQueue = 256

// webSeat is one browser player of this program's.
type webSeat struct {
	id     peer.ID
	name   string        // the person's, once it sat down
	lang   string        // its page's language, for its refusals (webRefusal)
	conn   *web.Conn     // the browser's socket now; nil while it is away
	attach chan struct{} // a new socket came (cap 1)
	// game carries the browser's game frames to the relay while a game
	// of its runs (relaying), nothing otherwise.
	game     chan web.Inbound
	relaying bool
	// refused counts the browser's lobby commands and chat lines dropped
	// for coming too fast (readWeb's bucket, one per socket).
	refused atomic.Int64
}

// A browser's lobby commands and chat lines: a burst of webSayBurst, then
// one per webSayEvery (a person taps far slower).
const (
	webSayBurst = 10
	webSayEvery = 200 * time.Millisecond
)

// ServeWeb implements web.Options.Players: a browser that proved its key
// on this program's game socket. It sits at this program's table by
// telling its name (client.CmdSit); a browser that comes back (a new
// socket of the same key) takes up its seat, in the lobby or the game.
func (s *NetSession) ServeWeb(c *web.Conn) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.Close()
		return
	}
	w := s.webs[c.Peer()]
	if w == nil {
		if len(s.webs) >= maxWebSeats {
			s.mu.Unlock()
			s.log.Warn("web: too many browser players: one refused", "peer", p2p.ShortID(c.Peer()))
			c.Close()
			return
		}
		w = &webSeat{id: c.Peer(), attach: make(chan struct{}, 1), game: make(chan web.Inbound, webGameQueue)}
		s.webs[c.Peer()] = w
	}
	old := w.conn
	w.conn = c
	_ = c.SendRaw(client.EncodeHost(s.self)) // first: a browser in a game moves its seat here (webmove.go)
	if v := s.webView; v != nil {
		s.tellWeb(w, s.webTableOf(*v))
	}
	s.mu.Unlock()
	if old != nil {
		old.Close()
	}
	select {
	case w.attach <- struct{}{}:
	default:
	}
	s.log.Info("web: a browser player connected", "peer", p2p.ShortID(c.Peer()))
	go s.readWeb(w, c)
}

// readWeb takes the browser's messages until its socket closes: lobby
// commands here, game frames to the game's relay.
func (s *NetSession) readWeb(w *webSeat, c *web.Conn) {
	var says p2p.Bucket
	for in := range c.Inbox() {
		if (in.Kind == p2p.KindLobby || in.Kind == p2p.KindChat || in.Kind == p2p.KindSeatMove) && !says.TakeAt(time.Now(), webSayBurst, webSayEvery) {
			if w.refused.Add(1) == 1 {
				s.log.Warn("web: a browser sends lobby commands or chat too fast: dropping them", "peer", p2p.ShortID(w.id))
			}
			continue
		}
		switch in.Kind {
		case p2p.KindLobby:
			cmd, err := client.ParseLobbyCmd(in.Data)
			if err == nil {
				err = s.webCommand(w, cmd)
			}
			if err != nil {
				s.log.Info("web: a browser's lobby command refused", "peer", p2p.ShortID(w.id), "err", err)
				if msg, e := client.EncodeLobby(s.webRefusal(w, err)); e == nil {
					_ = c.SendRaw(msg)
				}
			}
		case p2p.KindChat:
			if err := s.webSay(w, string(in.Data)); err != nil {
				s.log.Info("web: a browser's chat line refused", "peer", p2p.ShortID(w.id), "err", err)
			}
		case p2p.KindSeatMove:
			s.webMove(w, in.Data)
		case p2p.KindGame:
			s.mu.Lock()
			on := w.relaying
			s.mu.Unlock()
			if on {
				select {
				case w.game <- in:
				default: // the relay is behind: the node re-sends
				}
			}
		}
	}
	s.mu.Lock()
	if w.conn != c {
		s.mu.Unlock()
		return // replaced by a newer socket
	}
	w.conn = nil
	inGame := w.relaying
	if !inGame && s.webs[w.id] == w {
		delete(s.webs, w.id) // a browser gone between games: nothing to keep
	}
	s.mu.Unlock()
	s.log.Info("web: a browser player's socket closed", "peer", p2p.ShortID(w.id), "in game", inGame)
	if !inGame {
		// At the table, a browser gone is a player who left; in the
		// game its frames stop and the others vote it absent.
		if ctl, err := s.lobbyCtl(false); err == nil {
			_ = ctl.LeaveVia(w.id)
		}
	}
}

// webSay says a browser's chat line at the table, for its seat: the
// others show it under the person's name (p2p.Chat.SayFor).
func (s *NetSession) webSay(w *webSeat, text string) error {
	s.mu.Lock()
	name, colour := w.name, engine.NoColour
	if s.tr != nil {
		colour = s.tr.ColourOf(w.id)
	}
	s.mu.Unlock()
	if name == "" {
		return errors.New("sit down at the table to chat")
	}
	line, err := s.chat.SayFor(w.id, text)
	if line.Seq == 0 {
		return err
	}
	l := ui.ChatLine{From: name, Colour: colour, Text: line.Text}
	s.q.push(l)
	s.keepChat(l)
	s.toWatchers(name, line.Text)
	s.toWebs(w.id, l)
	return nil
}

// toWebs hands a chat line of the table to every browser player here
// (its own lines too: what the table made of them).
func (s *NetSession) toWebs(from peer.ID, l ui.ChatLine) {
	m := client.ChatMsg{From: l.From, Text: l.Text}
	if l.Colour < engine.NumColours {
		m.Colour = string(l.Colour.Letter())
	}
	data, err := json.Marshal(m)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, w := range s.webs {
		if w.conn != nil {
			_ = w.conn.Send(from, p2p.KindChat, data) // a full queue drops a line
		}
	}
}

// webCommand does a browser's lobby command at this program's table.
func (s *NetSession) webCommand(w *webSeat, cmd client.LobbyCmd) error {
	s.setWebLang(w, cmd.Lang)
	ctl, err := s.lobbyCtl(false)
	if err != nil {
		return err
	}
	switch cmd.T {
	case client.CmdSit:
		name := p2p.CleanName(cmd.Name)
		s.mu.Lock()
		var taken []string // the others at the table: one name, one person
		if v := s.webView; v != nil {
			for _, p := range v.Players {
				if p.ID != w.id {
					taken = append(taken, p.Name)
				}
			}
		}
		s.mu.Unlock()
		if err := checkPersonName(name, taken); err != nil {
			return err
		}
		s.mu.Lock()
		w.name = name
		s.mu.Unlock()
		return explain(ctl.SeatVia(w.id, name, true))
	case client.CmdColour:
		c, err := engine.ParseColour(cmd.Colour)
		if err != nil {
			return err
		}
		return explain(ctl.ColourVia(w.id, c))
	case client.CmdReady:
		return explain(ctl.ReadyVia(w.id, cmd.Ready))
	case client.CmdLeave:
		return explain(ctl.LeaveVia(w.id))
	}
	return fmt.Errorf("lobby command %q", cmd.T)
}

// showWebs tells every browser player the table as v shows it; s.mu is
// held.
func (s *NetSession) showWebs(v lobby.View) {
	s.webView = &v
	t := s.webTableOf(v)
	for _, w := range s.webs {
		s.tellWeb(w, t)
	}
}

func (s *NetSession) tellWeb(w *webSeat, t client.Table) {
	if w.conn == nil {
		return
	}
	msg, err := client.EncodeLobby(t)
	if err == nil {
		err = w.conn.SendRaw(msg)
	}
	if err != nil {
		s.log.Debug("web: table not sent", "peer", p2p.ShortID(w.id), "err", err)
	}
}

// webTable is a lobby view as the browser reads it.
func webTable(v lobby.View) client.Table {
	t := client.Table{Lobby: v.Lobby, Free: v.Free}
	for _, p := range v.Players {
		t.Players = append(t.Players, client.TablePlayer{ID: p.ID.String(), Name: p.Name,
			Colour: string(p.Colour.Letter()), Ready: p.Ready, Web: p.Phone})
	}
	for c, k := range v.Bots {
		if k != "" {
			t.Bots = append(t.Bots, string(engine.Colour(c).Letter()))
		}
	}
	return t
}

// relayWeb is GameConfig.Relay for the browser players of this program:
// the seat's frames from the Hub go to its browser (every frame for it,
// as its sender signed it), the browser's go into the Hub as that seat's,
// to the other seats here and to the other programs as seat frames. A
// browser away gets nothing (its frames stop: the others vote it absent);
// one that comes back is sent the Setup again and catches up as any
// player who returns.
func (s *NetSession) relayWeb(setup lockstep.Setup) func(ctx context.Context, seat peer.ID, l lockstep.Link) {
	return func(ctx context.Context, seat peer.ID, l lockstep.Link) {
		s.mu.Lock()
		w := s.webs[seat]
		if w == nil && len(s.webs) < maxWebSeats {
			// Its browser is not here (yet): a game resumed after a
			// crash, or a browser gone as it started. The record waits
			// for its socket.
			w = &webSeat{id: seat, attach: make(chan struct{}, 1), game: make(chan web.Inbound, webGameQueue)}
			s.webs[seat] = w
		}
		if w != nil {
			w.relaying = true
			for len(w.game) > 0 {
				<-w.game // another game's
			}
		}
		s.mu.Unlock()
		var attach <-chan struct{}
		var game <-chan web.Inbound
		if w != nil {
			attach, game = w.attach, w.game
			defer func() {
				s.mu.Lock()
				w.relaying = false
				if w.conn == nil && s.webs[w.id] == w {
					delete(s.webs, w.id) // gone, and its game is over
				}
				s.mu.Unlock()
			}()
		}
		var conn *web.Conn
		reattach := func() {
			if w == nil {
				return
			}
			s.mu.Lock()
			c := w.conn
			s.mu.Unlock()
			if c != conn && c != nil {
				if err := c.SendSetup(setup); err != nil {
					s.log.Info("web: setup not sent", "peer", p2p.ShortID(seat), "err", err)
				}
			}
			conn = c
		}
		reattach()
		for {
			select {
			case <-ctx.Done():
				return
			case <-attach:
				reattach()
			case f, ok := <-l.Frames():
				if !ok {
					return
				}
				if conn != nil {
					_ = conn.Send(f.From, p2p.KindGame, f.Data) // a full queue drops: the node re-sends
				}
			case <-l.Reach():
			case in := <-game:
				if err := l.Send(in.To, in.Data); err != nil {
					s.log.Debug("web: a browser's frame not sent", "peer", p2p.ShortID(seat), "err", err)
				}
			}
		}
	}
}
