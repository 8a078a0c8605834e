package p2p

import (
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Newcomers during a game.
//
// A peer in no seat that asks to take one (a late arrival, lockstep's
// newcomer) needs the game's own protocol, which the watchers' rules
// (watchers.go) keep from strangers. The layer above admits it as a
// guest (AdmitGuest) once it asked for a seat on the watch protocol:
// a guest may open the game stream and send game and chat frames (the
// chat's receivers hold it to the chat's rate, chat.go), and is sent
// the game's broadcasts; any other kind of frame from it is a strike,
// as a stranger's frame is, under the same strike and ban rules. Its
// connections are judged like a member's by the gater (it does not
// take a watcher's room), but it is not re-dialled and has no reserved
// room (reserve.go): it is not a player yet. At most MaxGuests are
// admitted at once; one with no game stream for guestIdle, or that sent
// no game frame within guestQuiet of its admission, is forgotten (its
// stream closed), making room for the next. SetMembers forgets them all (a new game or
// the lobby); AddMember makes one a member (it was given a seat).
const (
	MaxGuests  = 4
	guestIdle  = time.Minute
	guestQuiet = 30 * time.Second
)

// guest is what the transport holds of an admitted newcomer.
type guest struct {
	admitted, seen time.Time // seen: last heartbeat with a game stream
	heard          bool      // it sent a game frame
}

// ErrGuestsFull is AdmitGuest's answer when MaxGuests are admitted.
var ErrGuestsFull = errors.New("p2p: this game admits no more newcomers now; ask again in a minute")

// AdmitGuest lets id, which holds no seat, use the game protocol while
// this game runs (see above). It is a no-op for a member, and refused
// outside a game, for a banned peer, and beyond MaxGuests.
func (t *Transport) AdmitGuest(id peer.ID) error {
	now := time.Now()
	t.mu.Lock()
	switch {
	case t.members == nil:
		t.mu.Unlock()
		return errors.New("p2p: no game runs here to take a seat in")
	case t.members[id] || id == t.h.ID():
		t.mu.Unlock()
		return nil
	case t.isBannedLocked(id):
		t.mu.Unlock()
		return fmt.Errorf("p2p: %s is refused for its bad frames", short(id))
	}
	if _, ok := t.guests[id]; !ok && len(t.guests) >= MaxGuests {
		t.mu.Unlock()
		return ErrGuestsFull
	}
	if t.guests == nil {
		t.guests = map[peer.ID]*guest{}
	}
	if g := t.guests[id]; g != nil {
		g.seen = now
	} else {
		t.guests[id] = &guest{admitted: now, seen: now}
	}
	only := t.admittedLocked()
	t.mu.Unlock()
	t.log.Info("newcomer admitted to the game protocol", "peer", short(id))
	t.admitOnly(only)
	t.maybeOpen(id)
	return nil
}

// AddMember makes id a member of the game running (a newcomer given a
// seat): re-dialled while away, with room of its own.
func (t *Transport) AddMember(id peer.ID) {
	defer t.reserveMembers()
	t.mu.Lock()
	if t.members == nil || id == t.h.ID() {
		t.mu.Unlock()
		return
	}
	t.members[id] = true
	delete(t.guests, id)
	only := t.admittedLocked()
	t.mu.Unlock()
	t.h.ConnManager().Protect(id, "aeroplane")
	t.admitOnly(only)
	t.maybeOpen(id)
}

// Guests are the newcomers admitted now.
func (t *Transport) Guests() []peer.ID {
	t.mu.Lock()
	defer t.mu.Unlock()
	ids := make([]peer.ID, 0, len(t.guests))
	for id := range t.guests {
		ids = append(ids, id)
	}
	return ids
}

// admittedLocked is who the gater treats as a member: the members and
// the guests. Called with t.mu held.
func (t *Transport) admittedLocked() map[peer.ID]bool {
	only := maps.Clone(t.members)
	for id := range t.guests {
		only[id] = true
	}
	return only
}

// IsGuest reports whether p is an admitted newcomer (not a member).
func (t *Transport) IsGuest(p peer.ID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.guests[p]
	return ok
}

// heardGuest notes a game frame from p, if it is a guest.
func (t *Transport) heardGuest(p peer.ID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if g := t.guests[p]; g != nil {
		g.heard = true
	}
}

// expireGuestsLocked forgets the guests without a game stream for
// guestIdle and those silent guestQuiet after their admission, and
// returns the links of those to close; gone says whether any was
// forgotten. Called with t.mu held, every heartbeat.
func (t *Transport) expireGuestsLocked(now time.Time) (close []*link, gone bool) {
	for id, g := range t.guests {
		l := t.links[id]
		switch {
		case !g.heard && now.Sub(g.admitted) >= guestQuiet:
		case l != nil:
			g.seen = now
			continue
		case now.Sub(g.seen) < guestIdle:
			continue
		}
		delete(t.guests, id)
		gone = true
		if l != nil {
			close = append(close, l)
		}
	}
	return close, gone
}
