package session

import (
	"fmt"

	"aeroplane/lockstep"
	"aeroplane/p2p"
)

// The take request (on p2p.WatchProtocolID, beside the watch request): a
// peer in no seat asks a player to let it use the game protocol, to ask
// the players for a seat (lockstep's Take). The player answers with a
// watch answer carrying only its status: watchOK (admitted as a guest,
// p2p.AdmitGuest), watchFull (as many newcomers as it admits),
// watchNoGame or watchRefused. Whether the newcomer gets a seat is the
// players' votes' business, never this request's.
//
//	request: 'T' 1 | game [32] | len u8 name
type takeRequest struct {
	Game lockstep.GameID
	Name string // the newcomer's name, shown to the players
}

func encodeTakeRequest(r takeRequest) []byte {
	b := []byte{'T', 1}
	b = append(b, r.Game[:]...)
	return appendShort(b, r.Name)
}

// isTakeRequest tells a take request from a watch request by its tag.
func isTakeRequest(b []byte) bool { return len(b) > 0 && b[0] == 'T' }

func decodeTakeRequest(b []byte) (takeRequest, error) {
	var r takeRequest
	if len(b) < 2+32 || b[0] != 'T' || b[1] != 1 {
		return r, fmt.Errorf("%w: not a take request", errWatchWire)
	}
	copy(r.Game[:], b[2:34])
	name, rest, err := readShort(b[34:])
	switch {
	case err != nil:
		return takeRequest{}, err
	case len(rest) != 0:
		return takeRequest{}, fmt.Errorf("%w: %d bytes after the request", errWatchWire, len(rest))
	case name == "" || !p2p.ValidName(name):
		return takeRequest{}, fmt.Errorf("%w: newcomer name %q", errWatchWire, name)
	}
	r.Name = name
	return r, nil
}
