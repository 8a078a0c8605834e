package ui

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// paceSession is a fake LAN session whose creator sets the bots' pace.
type paceSession struct{ chooserSession }

func (p paceSession) SetBotPace(d time.Duration, set bool) error {
	return p.rec(fmt.Sprintf("pace %v %v", d, set))
}

// TestTablePace: the table shows everyone the bots' pace its creator
// set, in their language; the creator's p goes through the paces (each
// player's own, instant, 0.5 s, 1 s, 2 s, and round), a guest's p does
// nothing, and a session without the setting shows no pace line.
func TestTablePace(t *testing.T) {
	hostTable := func(d time.Duration, set bool) TableUpdate {
		tb := table4(false)
		tb.BotPace, tb.BotPaceSet = d, set
		return tb
	}
	mk := func(tb TableUpdate, lang string) (*UI, *fakeSession) {
		f := newFake()
		u := New(paceSession{chooserSession{f}}, Options{Lang: lang})
		u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice"}})
		u.Apply(tb)
		return u, f
	}
	cases := []struct {
		name  string
		tb    TableUpdate
		lang  string
		shown string
		press []string // what p asks for
	}{
		{"own", hostTable(0, false), "en", "p Bots' pace: each player's own", []string{"pace 0s true"}},
		{"instant", hostTable(0, true), "en", "p Bots' pace: instant", []string{"pace 500ms true"}},
		{"half a second", hostTable(500*time.Millisecond, true), "it", "p Ritmo dei bot: 0,5 s", []string{"pace 1s true"}},
		{"two seconds round to own", hostTable(2*time.Second, true), "en", "p Bots' pace: 2 s", []string{"pace 0s false"}},
		{"a pace not among the steps", hostTable(300*time.Millisecond, true), "zh", "机器人节奏：0.3 秒", []string{"pace 0s false"}},
		{"a guest sees it, without the key", guestTable(), "en", "Bots' pace: each player's own", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u, f := mk(tc.tb, tc.lang)
			if got := render(t, u, 80, 24); !strings.Contains(got, tc.shown) {
				t.Errorf("%q not on the table:\n%s", tc.shown, got)
			}
			u.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'p', tcell.ModNone))
			if got := f.took(); !reflect.DeepEqual(got, tc.press) {
				t.Errorf("p asked %q, want %q", got, tc.press)
			}
		})
	}
	u, _ := seatUI(true, table4(false))
	if got := render(t, u, 80, 24); strings.Contains(got, "Bots' pace") {
		t.Errorf("a session without the setting shows a pace:\n%s", got)
	}
}
