package p2p

import (
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// DefaultMaxStrangers caps the adverts kept from peers never proven by an
// authenticated connection (DiscoveryConfig.MaxStrangers): anyone on the
// LAN can answer mDNS in as many names as it likes.
const DefaultMaxStrangers = 256

// adTable is discovery's list of the adverts heard recently. Entries of
// proven peers (an authenticated connection vouches for the ID) are never
// refused or evicted for room; the others, strangers, number at most max.
// A stranger's new advert that finds no room takes the place of the
// stalest stranger not heard for stale, or is refused: a real peer answers
// every query, so the peers already listed keep their places through a
// flood of one-shot adverts, and a newcomer still finds room as the
// flood's entries go stale. Every entry leaves expire after it was last
// heard. The table takes the time as an argument, so tests drive it.
type adTable struct {
	max           int
	stale, expire time.Duration

	seen      map[peer.ID]seenAdvert
	strangers int // entries with !proven
}

type seenAdvert struct {
	Advert
	at     time.Time
	proven bool
}

func newAdTable(max int, stale, expire time.Duration) *adTable {
	return &adTable{max: max, stale: stale, expire: expire, seen: map[peer.ID]seenAdvert{}}
}

// admits reports whether put would take an advert from id now, without
// changing anything: discovery asks before it touches the peerstore.
func (t *adTable) admits(id peer.ID, proven bool, now time.Time) bool {
	if _, ok := t.seen[id]; ok || proven || t.strangers < t.max {
		return true
	}
	_, ok := t.stalest(now)
	return ok
}

// put records ad, heard at now. ok is false if it was refused for room;
// evicted names the stranger whose place it took, if any.
func (t *adTable) put(ad Advert, proven bool, now time.Time) (old Advert, had, ok bool, evicted peer.ID) {
	prev, had := t.seen[ad.ID]
	if !had && !proven && t.strangers >= t.max {
		id, found := t.stalest(now)
		if !found {
			return Advert{}, false, false, ""
		}
		t.remove(id)
		evicted = id
	}
	if had {
		t.remove(ad.ID)
	}
	t.seen[ad.ID] = seenAdvert{Advert: ad, at: now, proven: proven}
	if !proven {
		t.strangers++
	}
	return prev.Advert, had, true, evicted
}

// stalest is the stranger heard longest ago, if that was more than stale
// before now.
func (t *adTable) stalest(now time.Time) (peer.ID, bool) {
	var id peer.ID
	var at time.Time
	for k, s := range t.seen {
		if !s.proven && (id == "" || s.at.Before(at)) {
			id, at = k, s.at
		}
	}
	return id, id != "" && now.Sub(at) > t.stale
}

func (t *adTable) remove(id peer.ID) {
	if s, ok := t.seen[id]; ok {
		delete(t.seen, id)
		if !s.proven {
			t.strangers--
		}
	}
}

// expireAt drops the entries not heard for expire and returns them.
func (t *adTable) expireAt(now time.Time) []seenAdvert {
	var gone []seenAdvert
	for id, s := range t.seen {
		if now.Sub(s.at) > t.expire {
			t.remove(id)
			gone = append(gone, s)
		}
	}
	return gone
}

// list returns the adverts by ID.
func (t *adTable) list() []Advert {
	out := make([]Advert, 0, len(t.seen))
	for _, s := range t.seen {
		out = append(out, s.Advert)
	}
	slices.SortFunc(out, func(a, b Advert) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return out
}
