package ui

import (
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/ui/i18n"
)

// TestResumedScreen: a resumed game shows the chat the session saved
// with it in the chat panel, and while the program catches up (Resuming)
// its turn panel and its own line in the player list say so, not "the
// die waits for bob"; once caught up the turn panel is the game's again.
// Every language has the words.
func TestResumedScreen(t *testing.T) {
	u, _ := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H Y 0 -", engine.DefaultRules())
	u.Apply(ChatLine{From: "bob", Colour: engine.Yellow, Text: "good luck"})
	u.Apply(ChatLine{From: "alice", Colour: engine.Red, Text: "you too"})
	u.Apply(Resuming{On: true})
	u.Apply(DiceWaiting{ToMove: engine.Yellow, Waiting: []string{"bob"}})
	got := render(t, u, 100, 30)
	for _, want := range []string{"bob: good luck", "alice: you too", "Resuming your game: catching up", "you — resuming", "Resuming the game: catching up"} {
		if !strings.Contains(got, want) {
			t.Errorf("resuming: %q not on screen:\n%s", want, got)
		}
	}
	if strings.Contains(got, "the die waits for bob") {
		t.Errorf("resuming, the screen blames bob:\n%s", got)
	}
	u.Apply(Resuming{On: false})
	got = render(t, u, 100, 30)
	if !strings.Contains(got, "the die waits for bob") || strings.Contains(got, "you — resuming") || !strings.Contains(got, "Caught up") {
		t.Errorf("caught up, the screen still says resuming:\n%s", got)
	}
	for _, lang := range []string{"el", "hi", "it", "pt", "ru", "zh"} {
		u, _ := gameUI(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H Y 0 -", engine.DefaultRules())
		langUI(u, lang)
		u.Apply(Resuming{On: true})
		if got := render(t, u, 100, 30); !strings.Contains(got, u.t("status.resuming")) || u.t("turn.resuming") == i18n.New("en").T("turn.resuming") {
			t.Errorf("%s: the resuming status is not translated:\n%s", lang, got)
		}
	}
}
