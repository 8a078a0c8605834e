package i18n

// The interactive replay (ui.RunReplay); each language has its own replay_*.go.
func init() {
	extend("ru", map[string]string{
		"replay.title":    "Повтор игры %s: бросок %d из %d",
		"prompt.roll":     "Перейти к броску:",
		"key.replay.next": "следующий бросок",
		"key.replay.prev": "предыдущий бросок",
		"key.replay.jump": "к броску",
		"key.replay.ten":  "10 бросков",
		"key.replay.ends": "начало / конец",
		"err.replay":      "Это повтор: здесь ничего нельзя сыграть.",
	})
}
