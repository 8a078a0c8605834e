package i18n

// The interactive replay (ui.RunReplay); each language has its own replay_*.go.
func init() {
	extend("pt", map[string]string{
		"replay.title":    "Repetição de %s: lançamento %d de %d",
		"prompt.roll":     "Ir para o lançamento:",
		"key.replay.next": "lançamento seguinte",
		"key.replay.prev": "lançamento anterior",
		"key.replay.jump": "ir para lançamento",
		"key.replay.ten":  "10 lançamentos",
		"key.replay.ends": "início / fim",
		"err.replay":      "Isto é uma repetição: nada se joga aqui.",
	})
}
