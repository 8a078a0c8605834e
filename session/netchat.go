package session

import (
	"aeroplane/engine"
	"aeroplane/savegame"
	"aeroplane/ui"
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
