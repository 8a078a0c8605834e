package session

import (
	"errors"

	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/savegame"
	"aeroplane/ui"
)

// explain turns what the lobby, the game log or the protocol refused
// into the player's words (ui.Error, translated on the screen); an error
// already in them, or nil, passes as it is, and one of the system's or the
// network's stays its own text inside a translated frame (ui.ErrorMsg).
// Every error a session hands the screen goes through it or is a
// ui.Error already.
func explain(err error) error {
	var done *ui.Error
	if err == nil || errors.As(err, &done) {
		return err
	}
	for _, k := range refusals {
		if errors.Is(err, k.err) {
			return ui.Wrap(err, k.key)
		}
	}
	return err
}

// refusals are the kinds of refusal from below the session, in the order
// they are tried (the most specific first: ErrRemoveReady wraps nothing,
// ErrNotSeated is wrapped with more).
var refusals = []struct {
	err error
	key string
}{
	{lobby.ErrNotReady, "err.notready"},
	{lobby.ErrSeatTaken, "err.seattaken"},
	{lobby.ErrNotCreator, "err.notcreator"},
	{lobby.ErrFull, "err.full"},
	{lobby.ErrNotSeated, "err.notseated"},
	{lobby.ErrTooFew, "err.toofew"},
	{lobby.ErrGone, "err.lobbygone"},
	{lobby.ErrRemoveSelf, "err.removeself"},
	{lobby.ErrRemoveReady, "err.removeready"},
	{lobby.ErrNoOpenSeat, "err.noopenseat"},
	{lobby.ErrNoBotKind, "err.nobotkind"},
	{lobby.ErrNoColour, "err.nocolour"},
	{lobby.ErrUnreachable, "err.unreachable"},
	{lobby.ErrNoLobby, "err.nolobby"},
	{savegame.ErrInUse, "err.datainuse"},
	{savegame.ErrIdentityInUse, "err.idinuse"},
	{savegame.ErrExists, "err.exists"},
	{lockstep.ErrStopped, "err.gameover"},
}

// cheatMsg is what a player reads about misbehaviour of kind c; detail is
// the protocol's own account (technical, shown as it is).
func cheatMsg(c lockstep.Cheat, detail string) ui.Msg {
	if c >= lockstep.CheatBadReveal && c <= lockstep.CheatBadLeave {
		return ui.M(cheatKeys[c-lockstep.CheatBadReveal], detail)
	}
	return ui.M("cheat.other", c.String(), detail)
}

var cheatKeys = [...]string{
	"cheat.badreveal", "cheat.copiedchain", "cheat.outofturn", "cheat.illegalmove", "cheat.wrongseat",
	"cheat.equivocation", "cheat.badsignature", "cheat.badlink", "cheat.badmessage", "cheat.stale", "cheat.badleave",
}
