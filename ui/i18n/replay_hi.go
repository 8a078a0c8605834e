package i18n

// The interactive replay (ui.RunReplay); each language has its own replay_*.go.
func init() {
	extend("hi", map[string]string{
		"replay.title":    "%s का दोहराव: फेंक %d / %d",
		"prompt.roll":     "फेंक पर जाएँ:",
		"key.replay.next": "अगली फेंक",
		"key.replay.prev": "पिछली फेंक",
		"key.replay.jump": "फेंक पर जाएँ",
		"key.replay.ten":  "10 फेंक",
		"key.replay.ends": "शुरू / अंत",
		"err.replay":      "यह दोहराव है: इसमें कुछ खेला नहीं जा सकता।",
	})
}
