package ui

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"aeroplane/ui/i18n"
	"github.com/gdamore/tcell/v2"
)

// historyUI is a game with 40 numbered events in its log.
func historyUI(t *testing.T) *UI {
	u, _ := choosingUI(t)
	for i := 1; i <= 40; i++ {
		u.addEvent(fmt.Sprintf("event %02d", i))
	}
	return u
}

// TestEventHistoryScrolls: PgUp shows older events a page at a time, the
// view stays put when an event arrives meanwhile, PgDn and End come back
// to the newest; the key is on the key lines once the log overflows.
func TestEventHistoryScrolls(t *testing.T) {
	u := historyUI(t)
	scr := render(t, u, 80, 24)
	if !strings.Contains(scr, "event 40") || strings.Contains(scr, "event 30") {
		t.Fatalf("the log does not end with the newest events:\n%s", scr)
	}
	// While choosing, the key line is full (help lists the key); while
	// another player rolls there is room for it.
	u.Apply(DiceWaiting{ToMove: 1, Waiting: []string{"random"}})
	if b := bottomOf(render(t, u, 80, 24)); !strings.Contains(b, "PgUp/PgDn event history") {
		t.Errorf("the key lines do not offer the history: %q", b)
	}
	u.HandleKey(key(tcell.KeyPgUp))
	u.HandleKey(key(tcell.KeyPgUp))
	scr = render(t, u, 80, 24)
	checkGolden(t, "history-80x24", scr)
	if strings.Contains(scr, "event 40") || !strings.Contains(scr, "newer lines below") {
		t.Errorf("two pages up still shows the newest event, or does not say so:\n%s", scr)
	}
	shown := eventsOn(scr)
	u.addEvent("event 41")
	if got := eventsOn(render(t, u, 80, 24)); !reflect.DeepEqual(got, shown) {
		t.Errorf("a new event moved the scrolled log: %v, was %v", got, shown)
	}
	u.HandleKey(key(tcell.KeyHome))
	if got := eventsOn(render(t, u, 80, 24)); len(got) == 0 || got[0] != "event 01" {
		t.Errorf("Home shows %v, want the first events", got)
	}
	u.HandleKey(key(tcell.KeyEnd))
	if got := eventsOn(render(t, u, 80, 24)); len(got) == 0 || got[len(got)-1] != "event 41" {
		t.Errorf("End shows %v, want the newest", got)
	}
	// PgDn past the end stops there.
	u.HandleKey(key(tcell.KeyPgUp))
	for i := 0; i < 5; i++ {
		u.HandleKey(key(tcell.KeyPgDn))
	}
	if got := eventsOn(render(t, u, 80, 24)); len(got) == 0 || got[len(got)-1] != "event 41" {
		t.Errorf("PgDn shows %v, want the newest", got)
	}
}

var eventNumber = regexp.MustCompile(`event \d\d`)

func eventsOn(scr string) []string {
	var out []string
	for _, l := range strings.Split(scr, "\n") {
		if m := eventNumber.FindString(l); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// TestLobbyScrolls: with more games than fit, the lobby offers a scroll
// key, shows an arrow, and scrolls down to the rest (beyond nine games it
// says how many more there are); 1–9 still join.
func TestLobbyScrolls(t *testing.T) {
	u, f := lobbyUI()
	var games []Game
	for i := 0; i < 12; i++ {
		games = append(games, Game{ID: fmt.Sprintf("g%d", i), Host: Peer{Name: fmt.Sprintf("host%d", i)}})
	}
	u.Apply(LobbyUpdate{Me: u.lobby.Me, Games: games, Players: []Peer{{ID: "12D3KooWaaaaaa", Name: "bob"}, {ID: "12D3KooWbbbbbb", Name: "carol"}}})
	scr := render(t, u, 80, 24)
	if !strings.Contains(bottomOf(scr), "PgUp/PgDn scroll") || !strings.Contains(scr, "↓") {
		t.Fatalf("an overflowing lobby offers no scrolling:\n%s", scr)
	}
	if strings.Contains(scr, "After the shortcut") {
		t.Fatalf("the whole lobby fits: the test needs more games:\n%s", scr)
	}
	for i := 0; i < 4; i++ {
		u.HandleKey(key(tcell.KeyPgDn))
	}
	scr = render(t, u, 80, 24)
	checkGolden(t, "lobby-scrolled-80x24", scr)
	for _, want := range []string{"After the shortcut", "12) host11's game", "click any game", "carol", "↑"} {
		if !strings.Contains(scr, want) {
			t.Errorf("scrolled lobby lacks %q:\n%s", want, scr)
		}
	}
	u.HandleKey(ch('9'))
	if got := f.took(); !reflect.DeepEqual(got, []string{"join g8"}) {
		t.Errorf("9 sent %q", got)
	}
	// Every game is listed, in every language, at the top and scrolled
	// to the end.
	for _, lang := range i18n.Languages() {
		u, _ := lobbyUI()
		langUI(u, lang)
		u.Apply(LobbyUpdate{Me: u.lobby.Me, Games: games, Players: []Peer{{ID: "12D3KooWaaaaaa", Name: "bob"}, {ID: "12D3KooWbbbbbb", Name: "carol"}}})
		checkGolden(t, "lobby12-"+lang+"-80x24", render(t, u, 80, 24))
		for i := 0; i < 6; i++ {
			u.HandleKey(key(tcell.KeyPgDn))
		}
		scr := render(t, u, 80, 24)
		checkGolden(t, "lobby12-"+lang+"-scrolled-80x24", scr)
		if !strings.Contains(scr, "12) ") || !strings.Contains(scr, "host11") {
			t.Errorf("%s: the twelfth game is not listed:\n%s", lang, scr)
		}
	}
	// A lobby that fits offers no scroll key.
	u, _ = lobbyUI()
	if b := bottomOf(render(t, u, 80, 24)); strings.Contains(b, "scroll") {
		t.Errorf("a lobby that fits offers scrolling: %q", b)
	}
}
