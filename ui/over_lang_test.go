package ui

import (
	"testing"

	"aeroplane/engine"
)

// TestGameOverGoldenLanguages pins the game-over screen at 80×24 in every
// language but English (over-80x24 is English's): the ranking, the log's
// path and the keys, in scripts of every width.
func TestGameOverGoldenLanguages(t *testing.T) {
	for _, lang := range []string{"el", "hi", "it", "pt", "ru", "zh"} {
		t.Run(lang, func(t *testing.T) {
			u, _ := gameUI(t, "F,F,F,F/F,F,F,F/30,H,54,F/F,F,F,F - 0 RGB", engine.DefaultRules())
			langUI(u, lang)
			u.Apply(GameOver{Ranking: []engine.Colour{engine.Red, engine.Green, engine.Blue, engine.Yellow}, LogPath: "/home/alice/.local/state/aeroplane/games/g1.log"})
			checkGolden(t, "over-"+lang+"-80x24", render(t, u, 80, 24))
		})
	}
}
