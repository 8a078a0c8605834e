package i18n

// The interactive replay (ui.RunReplay); each language has its own replay_*.go.
func init() {
	extend("el", map[string]string{
		"replay.title":    "Επανάληψη του %s: ζαριά %d από %d",
		"prompt.roll":     "Πήγαινε στη ζαριά:",
		"key.replay.next": "επόμενη ζαριά",
		"key.replay.prev": "προηγούμενη ζαριά",
		"key.replay.jump": "πήγαινε σε ζαριά",
		"key.replay.ten":  "10 ζαριές",
		"key.replay.ends": "αρχή / τέλος",
		"err.replay":      "Αυτή είναι επανάληψη: εδώ δεν παίζεται τίποτα.",
	})
}
