package i18n

// Pausing a game for everyone (ui/pausegame.go): the p key's question,
// its answers and the event lines. Each language has its own pause_*.go.
func init() {
	extend("en", map[string]string{
		"key.pausegame":        "pause for everyone",
		"key.pauseall":         "pause for everyone",
		"key.playon":           "play on",
		"pause.title":          "Pause the game?",
		"pause.text":           "Pause the game for everyone? The others are asked too. When every player has paused, the game stops and the lobby offers it to continue another day.",
		"log.pausesent":        "you asked to pause: waiting for the others to pause too",
		"log.pauseasked":       "%s asks to pause — press p to pause too",
		"log.pausedtoo":        "%s paused too",
		"log.paused":           "the game is paused at roll %d: continue it from the lobby another day",
		"err.pausegame":        "The game could not be paused: %v",
		"log.playon":           "you play on: your request to pause is lifted",
		"log.pauselifted":      "%s plays on",
		"key.liftpause":        "take back the pause",
		"note.continuewait":    "Waiting for %s to continue the game too (at most %s).",
		"note.continuewithout": "%s did not continue the game within %s: it goes on, bots flying their seats until they are back.",
	})
}
