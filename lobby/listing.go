package lobby

import (
	"aeroplane/engine"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// The lobby's list of games, as the screen shows it.
//
// An mDNS advert is a hint: anyone can send one under any peer ID. A game
// it offers is listed, but marked unverified until a libp2p connection to
// that peer ID has proved it (Noise proves the key; p2p's
// Discovery.Proven), and then listed as any other. A ghost advert is
// therefore at most one unverified line, never a game that looks real.

// Listed is a game a host's advert offers.
type Listed struct {
	Host     p2p.Advert
	Rules    engine.Rules
	Verified bool // a libp2p connection has proved Host.ID
}

// Listing is the games the adverts offer, in their order: a host's
// lobby with a free seat, whose rules (carried as text) this engine reads
// exactly as written; proven says whether a connection has proved an ID.
func Listing(ads []p2p.Advert, proven func(peer.ID) bool) []Listed {
	var out []Listed
	for _, ad := range ads {
		if !ad.Host || ad.Lobby == "" || ad.Free <= 0 {
			continue
		}
		r, err := engine.ParseRules(ad.Rules)
		if err != nil || r.String() != ad.Rules {
			continue // a stranger's text, not a game's rules
		}
		out = append(out, Listed{Host: ad, Rules: r, Verified: proven(ad.ID)})
	}
	return out
}

// ToProve is which unverified hosts of list to dial now, at most max of
// them, skipping those tried may refuse (tried recently): dialling is
// what proves an advert, and a ghost's addresses are dialled at most as
// often as tried allows.
func ToProve(list []Listed, max int, tried func(peer.ID) bool) []peer.ID {
	var out []peer.ID
	for _, l := range list {
		if len(out) == max {
			break
		}
		if !l.Verified && !tried(l.Host.ID) {
			out = append(out, l.Host.ID)
		}
	}
	return out
}
