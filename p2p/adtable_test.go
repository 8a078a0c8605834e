package p2p

import (
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

func fakeID(i int) peer.ID { return peer.ID(fmt.Sprintf("stranger-%06d", i)) }

// TestAdTableCapsStrangers floods the table on a fake clock: the strangers
// never number more than the cap, the peers listed before the flood (they
// answer every query) and the proven ones keep their places, a one-shot
// entry gone stale gives its place to a newcomer, and expiry empties it.
func TestAdTableCapsStrangers(t *testing.T) {
	const max = 16
	stale, expire := time.Second, 3*time.Second
	honest, friend := peer.ID("honest"), peer.ID("friend")
	cases := []struct {
		name  string
		every time.Duration // one fake advert per every
		n     int
	}{
		{"burst", 0, 20_000},
		{"1000 a second", time.Millisecond, 20_000},
		{"slow", 100 * time.Millisecond, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := newAdTable(max, stale, expire)
			now := time.Unix(1_000_000, 0)
			tb.put(Advert{ID: honest, Name: "honest"}, false, now)
			tb.put(Advert{ID: friend, Name: "friend"}, true, now)
			lastHonest := now
			evictions := 0
			for i := range c.n {
				now = now.Add(c.every)
				// The honest peer answers every 400 ms query.
				if now.Sub(lastHonest) >= 400*time.Millisecond {
					if _, _, ok, _ := tb.put(Advert{ID: honest}, false, now); !ok {
						t.Fatalf("advert %d: the listed honest peer was refused", i)
					}
					tb.put(Advert{ID: friend}, true, now)
					lastHonest = now
				}
				id := fakeID(i)
				admits := tb.admits(id, false, now)
				_, _, ok, ev := tb.put(Advert{ID: id}, false, now)
				if ok != admits {
					t.Fatalf("advert %d: admits %v but put %v", i, admits, ok)
				}
				if ev != "" {
					evictions++
					if ev == honest || ev == friend {
						t.Fatalf("advert %d evicted %s", i, ev)
					}
				}
				if tb.strangers > max || len(tb.seen) > max+1 {
					t.Fatalf("advert %d: %d strangers, %d entries (cap %d)", i, tb.strangers, len(tb.seen), max)
				}
				if i%100 == 0 {
					tb.expireAt(now)
				}
			}
			if _, ok := tb.seen[honest]; !ok {
				t.Error("the honest peer is no longer listed")
			}
			if _, ok := tb.seen[friend]; !ok {
				t.Error("the proven peer is no longer listed")
			}
			if c.every >= time.Millisecond && evictions == 0 {
				t.Error("no stale stranger ever gave its place to a newcomer")
			}
			gone := tb.expireAt(now.Add(expire + time.Nanosecond))
			if len(tb.seen) != 0 || tb.strangers != 0 || len(gone) == 0 {
				t.Errorf("after expiry: %d entries, %d strangers, %d gone", len(tb.seen), tb.strangers, len(gone))
			}
		})
	}
}

// TestAdTableProvenChange: an entry refreshed as proven stops counting
// against the strangers' cap, and one that comes back unproven counts again.
func TestAdTableProvenChange(t *testing.T) {
	tb := newAdTable(1, time.Second, 3*time.Second)
	now := time.Unix(0, 0)
	tb.put(Advert{ID: "a"}, false, now)
	if _, _, ok, _ := tb.put(Advert{ID: "b"}, false, now); ok {
		t.Fatal("a second stranger got past a cap of one")
	}
	tb.put(Advert{ID: "a"}, true, now)
	if _, _, ok, _ := tb.put(Advert{ID: "b"}, false, now); !ok || tb.strangers != 1 {
		t.Fatalf("a proven peer still takes a stranger's place (ok %v, strangers %d)", ok, tb.strangers)
	}
	old, had, _, _ := tb.put(Advert{ID: "a", Name: "x"}, false, now)
	if !had || old.ID != "a" || tb.strangers != 2 {
		t.Fatalf("refresh: had %v old %v strangers %d", had, old, tb.strangers)
	}
}

// TestAdTableTTL: an entry lives the TTL its advert gave, held to
// [minLife, the table's expire] so a hostile TTL pins nothing; it is due
// for a refresh query at 75% and again at 90% of that, is named as a known
// answer (with the TTL it has left) only while more than half is left,
// and a goodbye removes it at once.
func TestAdTableTTL(t *testing.T) {
	const expire = 10 * time.Second
	cases := []struct {
		name     string
		ttl      time.Duration
		life     time.Duration
		knownTTL time.Duration // what a known answer says 1 s after
	}{
		{"ours", 8 * time.Second, 8 * time.Second, 7 * time.Second},
		{"standard 120 s", 120 * time.Second, expire, 119 * time.Second},
		{"hostile huge", time.Duration(1<<32-1) * time.Second, expire, maxTTL - time.Second},
		{"tiny", 100 * time.Millisecond, minLife, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := newAdTable(16, time.Second, expire)
			now := time.Unix(1_000_000, 0)
			tb.putTTL(Advert{ID: "p"}, false, now, c.ttl)
			at := func(d time.Duration) time.Time { return now.Add(d) }
			if k := tb.known(at(time.Second)); c.knownTTL > 0 && (len(k) != 1 || k[0].ttl != c.knownTTL) {
				t.Errorf("known answers 1 s on: %+v, want one with TTL %v", k, c.knownTTL)
			}
			if k := tb.known(at(c.life/2 + time.Millisecond)); len(k) != 0 {
				t.Errorf("still a known answer past half its life")
			}
			if tb.due(at(c.life*3/4 - time.Millisecond)) {
				t.Error("due before 75% of its life")
			}
			if !tb.due(at(c.life * 3 / 4)) {
				t.Error("not due at 75% of its life")
			}
			if tb.due(at(c.life*3/4 + time.Millisecond)) {
				t.Error("due twice for one step")
			}
			if !tb.due(at(c.life * 9 / 10)) {
				t.Error("not due again at 90% of its life")
			}
			if gone := tb.expireAt(at(c.life)); len(gone) != 0 {
				t.Errorf("expired at its life, not after")
			}
			if gone := tb.expireAt(at(c.life + time.Millisecond)); len(gone) != 1 {
				t.Errorf("not expired after its life (%v)", c.life)
			}
			// Heard again, it starts afresh; a goodbye ends it at once.
			tb.putTTL(Advert{ID: "p"}, false, now, c.ttl)
			tb.putTTL(Advert{ID: "p"}, false, at(c.life), c.ttl)
			if tb.due(at(c.life + c.life/2)) {
				t.Error("a refreshed entry is due by its old time")
			}
			if _, ok := tb.goodbye("p"); !ok || len(tb.seen) != 0 || tb.strangers != 0 {
				t.Errorf("goodbye left %d entries, %d strangers", len(tb.seen), tb.strangers)
			}
		})
	}
}
