package i18n

// The interactive replay (ui.RunReplay); each language has its own replay_*.go.
func init() {
	extend("en", map[string]string{
		"replay.title":    "Replay of %s: roll %d of %d",
		"prompt.roll":     "Go to roll:",
		"key.replay.next": "next roll",
		"key.replay.prev": "previous roll",
		"key.replay.jump": "go to roll",
		"key.replay.ten":  "10 rolls",
		"key.replay.ends": "start / end",
		"err.replay":      "This is a replay: nothing can be played in it.",
	})
}
