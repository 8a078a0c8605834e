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
// flood's entries go stale. Every entry leaves its life after it was last
// heard: the TTL its advert gave, held to [minLife, expire], so a hostile
// TTL pins nothing (the cap and the eviction above apply all the same). An
// entry is due for a refresh query at 75% and again at 90% of its life
// (RFC 6762 §5.2 asks at 80-95%; ours are far enough apart for a
// responder that answers once a second). The table takes the time as an
// argument, so tests drive it.
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
	ttl    time.Duration // as the advert said (at most maxTTL)
	life   time.Duration // ttl held to [minLife, expire]
	asked  int           // refresh queries sent since it was last heard
}

// minLife is the shortest life an entry gets, and maxTTL the most of an
// advert's TTL we repeat back as a known answer.
const (
	minLife = time.Second
	maxTTL  = 75 * time.Minute
)

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

// put records ad, heard at now with a TTL of expire.
func (t *adTable) put(ad Advert, proven bool, now time.Time) (old Advert, had, ok bool, evicted peer.ID) {
	return t.putTTL(ad, proven, now, t.expire)
}

// putTTL records ad, heard at now with ttl. ok is false if it was refused
// for room; evicted names the stranger whose place it took, if any.
func (t *adTable) putTTL(ad Advert, proven bool, now time.Time, ttl time.Duration) (old Advert, had, ok bool, evicted peer.ID) {
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
	ttl = min(ttl, maxTTL)
	t.seen[ad.ID] = seenAdvert{Advert: ad, at: now, proven: proven, ttl: ttl, life: min(max(ttl, minLife), t.expire)}
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

// expireAt drops the entries not heard for their life and returns them.
func (t *adTable) expireAt(now time.Time) []seenAdvert {
	var gone []seenAdvert
	for id, s := range t.seen {
		if now.Sub(s.at) > s.life {
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

// known returns the entries heard with more than half their life left,
// and the TTL each has left of what it said: a query names them as known
// answers, so their responders stay silent (RFC 6762 §7.1). The freshest
// come first, should a message not hold them all.
func (t *adTable) known(now time.Time) []seenAdvert {
	var out []seenAdvert
	for _, s := range t.seen {
		if age := now.Sub(s.at); age < s.life/2 && s.ttl > age {
			s.ttl -= age
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b seenAdvert) int { return b.at.Compare(a.at) })
	return out
}

// due reports whether an entry needs a refresh query now (75% or 90% of
// its life gone unheard), and counts the query as asked for them all.
func (t *adTable) due(now time.Time) bool {
	need := false
	for id, s := range t.seen {
		age := now.Sub(s.at)
		if (s.asked == 0 && age >= s.life*3/4) || (s.asked == 1 && age >= s.life*9/10) {
			s.asked++
			t.seen[id] = s
			need = true
		}
	}
	return need
}

// goodbye drops id's entry at once (a TTL of 0) and returns it.
func (t *adTable) goodbye(id peer.ID) (seenAdvert, bool) {
	s, ok := t.seen[id]
	if ok {
		t.remove(id)
	}
	return s, ok
}
