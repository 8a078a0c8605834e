package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"aeroplane/internal/testkit"
)

// setupBotSession also lets the creator choose what follows a player who
// never confirms the game.
type setupBotSession struct{ chooserSession }

func (s setupBotSession) SetSetupBot(on bool) error { return s.rec(fmt.Sprintf("setupbot %v", on)) }

// The creator's table shows its choice for a player who never confirms
// (pinned in a golden per state), and w flips it; a guest, and a session
// without the choice, neither see the line nor have the key.
func TestSetupBotKey(t *testing.T) {
	guest := guestTable()
	on := creatorTable()
	on.SetupBot = true
	cases := []struct {
		name    string
		table   TableUpdate
		chooser bool
		golden  string
		want    []string
	}{
		{"the creator, waiting", creatorTable(), true, "table-setupbot-wait", []string{"setupbot true"}},
		{"the creator, a bot", on, true, "table-setupbot-bot", []string{"setupbot false"}},
		{"a guest", guest, true, "", nil},
		{"a session without the choice", creatorTable(), false, "", nil},
	}
	for _, c := range cases {
		f := newFake()
		var s Session = chooserSession{f}
		if c.chooser {
			s = setupBotSession{chooserSession{f}}
		}
		u := New(s, Options{Lang: "en"})
		u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice", Addr: "/ip4/10.0.0.1/tcp/1"}})
		u.Apply(c.table)
		scr := render(t, u, 80, 24)
		if shown := strings.Contains(scr, "never confirms"); shown != (c.golden != "") {
			t.Errorf("%s: the choice shown %v:\n%s", c.name, shown, scr)
		}
		if c.golden != "" {
			testkit.Golden(t, "testdata/"+c.golden+"-80x24.golden", []byte(scr))
		}
		u.HandleKey(ch('w'))
		if got := f.took(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: commands %q, want %q", c.name, got, c.want)
		}
	}
}
