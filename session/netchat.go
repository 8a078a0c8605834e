package session

import (
	"sync"

	"aeroplane/engine"
	"aeroplane/savegame"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// keepChat saves a chat line said during a game beside its log
// (savegame.AppendChat, bounded), so a player who resumes the game sees
// the chat as it was. Lines outside a game are not saved.
func (s *NetSession) keepChat(l ui.ChatLine) {
	s.mu.Lock()
	gid, inGame := s.gameID, s.mode == modeGame && s.sess != nil
	s.mu.Unlock()
	if !inGame {
		return
	}
	c := -1
	if l.Colour < engine.NumColours {
		c = int(l.Colour)
	}
	if err := s.dir.AppendChat(gid, savegame.ChatLine{Colour: c, From: l.From, Text: l.Text}); err != nil {
		s.chatWarn.Do(func() { s.log.Warn("chat not saved: a resumed game will not show it", "err", err) })
	}
}

// reconnects tells the interface when a player of the game whose
// connection went down is back on the network: its program (restarted,
// or after a cable cut) is catching up with the game (ui.CatchingUp)
// until the interface sees it play again. onPeer runs on the link's
// goroutine; the translator's colours and the names never change during
// a game.
type reconnects struct {
	tr    *Translator
	names map[peer.ID]string
	push  func(...ui.Event)
	mu    sync.Mutex
	down  map[peer.ID]bool
}

func (r *reconnects) onPeer(id peer.ID, up bool) {
	c := r.tr.ColourOf(id)
	if c >= engine.NumColours {
		return // not a player of this game
	}
	r.mu.Lock()
	was := r.down[id]
	if r.down == nil {
		r.down = map[peer.ID]bool{}
	}
	r.down[id] = !up
	r.mu.Unlock()
	if up && was {
		name := r.names[id]
		if name == "" {
			name = shortID(id)
		}
		r.push(ui.CatchingUp{Colour: c, Name: name})
	}
}

// savedChat is a game's saved chat as the lines the interface shows.
func savedChat(lines []savegame.ChatLine) []ui.Event {
	evs := make([]ui.Event, 0, len(lines))
	for _, l := range lines {
		c := engine.NoColour
		if l.Colour >= 0 && l.Colour < int(engine.NumColours) {
			c = engine.Colour(l.Colour)
		}
		evs = append(evs, ui.ChatLine{From: l.From, Colour: c, Text: l.Text})
	}
	return evs
}
