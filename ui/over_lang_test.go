package ui

import (
	"strings"
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

// TestOfflineTableTitle: the table of a game on this computer alone is
// named so in every language, not by its internal game ID.
func TestOfflineTableTitle(t *testing.T) {
	for _, lang := range []string{"en", "el", "hi", "it", "pt", "ru", "zh"} {
		u, _ := lobbyUI()
		langUI(u, lang)
		tb := table4(false)
		tb.GameID, tb.Offline = "local", true
		u.Apply(tb)
		scr := render(t, u, 80, 24)
		if want := u.t("table.offline"); !strings.Contains(scr, want) || strings.Contains(scr, "local") {
			t.Errorf("%s: the offline table's title is not %q:\n%s", lang, want, scr)
		}
	}
}
