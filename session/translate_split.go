package session

import (
	"aeroplane/lockstep"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

// splitResidue reports whether e is evidence an honest peer's undone
// branch leaves once the table is together again (PROTOCOL.md, threat
// table: both halves of a split go on): a message signed on a branch the
// votes undid, read before its sender's fresh one. Its state, its roll or
// its move no longer fits; nothing of it is ever applied. The other kinds
// (a bad die share, a copied chain, two messages with one number, a bad
// signature…) no undone branch makes.
func splitResidue(e lockstep.Event) bool {
	if e.Kind == lockstep.EventStateMismatch {
		return true
	}
	switch e.Cheat {
	case lockstep.CheatStaleMessage, lockstep.CheatBadMessage, lockstep.CheatOutOfTurn, lockstep.CheatIllegalMove:
		return e.Kind == lockstep.EventCheating
	}
	return false
}

// splitSeen notes that this game's table came apart or together again:
// a player absent or back, a lone decision, a rollback, a program
// restored from its log (its own or another's). From then on the split's
// residue is no longer named as cheating.
func (t *Translator) splitSeen() { t.split = true }

// evidence is what the screen says of a cheat or a state mismatch the
// node logged. Before any split every one is named as cheating. After
// one, the residue of an undone branch is said once per peer, as set
// aside, and then only logged (the game log keeps every piece of it for
// `aeroplane verify`): after a laptop's kill -9 or a cable cut the table
// would otherwise read a screen of accusations against honest friends,
// one per undone roll.
func (t *Translator) evidence(e lockstep.Event, cheat ui.Event) []ui.Event {
	if !t.split || !splitResidue(e) {
		return []ui.Event{cheat}
	}
	if t.setAside == nil {
		t.setAside = map[peer.ID]bool{}
	}
	if t.setAside[e.Peer] {
		return nil
	}
	t.setAside[e.Peer] = true
	return []ui.Event{ui.Notice{Msg: ui.M("note.split.setaside", t.name(e.Peer))}}
}
