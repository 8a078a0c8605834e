package lobby

import (
	"testing"
	"time"
)

// The bots' pace is the creator's to set, within bounds, round trips on
// the wire, and is no change of the game: nobody's ready is cleared and
// the table's version stays.
func TestSetPace(t *testing.T) {
	cases := []struct {
		name    string
		p       Pace
		ok      bool
		changed bool
	}{
		{"each player's own", Pace{}, true, false},
		{"instant", Pace{Set: true}, true, true},
		{"a second", Pace{Set: true, Delay: time.Second}, true, true},
		{"the most", Pace{Set: true, Delay: MaxBotPace}, true, true},
		{"too slow", Pace{Set: true, Delay: MaxBotPace + time.Millisecond}, false, false},
		{"negative", Pace{Set: true, Delay: -time.Millisecond}, false, false},
		{"not whole milliseconds", Pace{Set: true, Delay: 1500 * time.Microsecond}, false, false},
		{"a delay not set", Pace{Delay: time.Second}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tb := mustTable(t, TableConfig{Creator: member(0), Players: 2, ManualReady: true})
			tb.Join(ids[1], names[1], nil)
			v := tb.Version()
			tb.SetReady(ids[1], true, v)
			changed, err := tb.SetPace(tc.p)
			if (err == nil) != tc.ok || changed != tc.changed {
				t.Fatalf("SetPace(%+v): changed %v, %v; want ok %v, changed %v", tc.p, changed, err, tc.ok, tc.changed)
			}
			if tb.Version() != v || len(tb.NotReady()) != 1 {
				t.Errorf("the pace changed the table: version %d→%d, not ready %v", v, tb.Version(), tb.NotReady())
			}
			if tc.ok && tb.Pace() != tc.p {
				t.Errorf("the table's pace %+v, want %+v", tb.Pace(), tc.p)
			}
			if tc.ok {
				if back := paceOf(tc.p.wire()); back != tc.p {
					t.Errorf("the wire gives %+v back for %+v", back, tc.p)
				}
			}
		})
	}
	if _, err := New(TableConfig{Creator: member(0), Players: 2, Pace: Pace{Set: true, Delay: time.Hour}}); err == nil {
		t.Error("a table opened with an hour's pace")
	}
}
