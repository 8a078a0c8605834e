package i18n

// Watching a running game, and continuing a saved one another day: the
// lobby's lists of both, the watcher's panel, the leave question's pause,
// and the session's notes about them (ui.Msg keys from package session).
// Each language has its own watch_*.go.
func init() {
	extend("en", map[string]string{
		"lobby.running":      "Running games (watch one)",
		"lobby.runninggame":  "%s — roll %d, %d watching",
		"lobby.runninglead":  "%s — roll %d, %s leads, %d watching",
		"watch.ok":           "watching — verified: %d records, roll %d (from %s)",
		"watch.bad":          "a player's log failed the checks: %s",
		"watch.paused":       "the players paused the game at roll %d — verified: %d records",
		"log.watchpaused":    "the players paused the game at roll %d: what you watched is saved and verified up to there",
		"watch.end":          "watched to the end — verified: %d records",
		"watch.by":           "watched by %s",
		"lobby.continue":     "Saved games to continue",
		"lobby.continuegame": "continue: %s — roll %d, saved %s (%s)",
		"weekday.0":          "Sunday",
		"weekday.1":          "Monday",
		"weekday.2":          "Tuesday",
		"weekday.3":          "Wednesday",
		"weekday.4":          "Thursday",
		"weekday.5":          "Friday",
		"weekday.6":          "Saturday",
		"key.pause":          "pause: continue another day",

		"note.watch.looking": "Looking for the running game %q on the LAN.",
		"note.watch.badlog":  "%s's log failed the checks (%s): watching from another player.",
		"note.watch.joined":  "%s is watching the game.",
		"note.continuing":    "Continuing %q after %d rolls, saved %s.",
		"err.watchwhich":     "Which game? Name the lobby to watch.",
		"err.nopause":        "No game is being played to pause.",
		"err.nocontinue":     "No saved game %q to continue: it is over, was left, or is another player's.",
	})
}
