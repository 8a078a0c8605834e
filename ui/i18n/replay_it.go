package i18n

// The interactive replay (ui.RunReplay); each language has its own replay_*.go.
func init() {
	extend("it", map[string]string{
		"replay.title":    "Replay di %s: tiro %d di %d",
		"prompt.roll":     "Vai al tiro:",
		"key.replay.next": "tiro seguente",
		"key.replay.prev": "tiro precedente",
		"key.replay.jump": "vai al tiro",
		"key.replay.ten":  "10 tiri",
		"key.replay.ends": "inizio / fine",
		"err.replay":      "Questo è un replay: qui non si gioca.",
	})
}
