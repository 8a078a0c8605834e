package lockstep

import (
	"context"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"
)

// checked is a frame from the link, with its signature checked if
// Verifier could vouch for it.
type checked struct {
	in Frame
	f  Verified
	ok bool
}

// VerifyLanes bounds the goroutines that check signatures: enough for the
// other players of a 4-player game to be checked at once.
const VerifyLanes = 4

// laneMembers bounds the sender-to-lane map: frames from strangers must
// not grow it; order matters only per member, and members are few.
const laneMembers = 256

// verifyFrames moves Ed25519 verification, most of a roll's CPU, off the
// driver's goroutine: it reads the link's frames and gives each sender a
// lane (one goroutine checking its frames in order), so the reveals of a
// roll, which come from different players, are checked in parallel with
// each other and with the driver, and each sender's frames still reach
// the driver in the order they came. It runs until ctx ends; wg tells
// when it has stopped reading the link.
//
// A frame the Verifier does not vouch for goes to Node.Step unchanged,
// which checks it again and rejects it, naming the cheat; only
// Verifier.Verify can make the token StepVerified trusts (preverify.go),
// so no frame reaches the node unchecked.
func (d *Driver) verifyFrames(ctx context.Context, out chan<- checked, wg *sync.WaitGroup) {
	lanes := make([]chan Frame, VerifyLanes)
	for i := range lanes {
		lanes[i] = make(chan Frame, 64)
		wg.Go(func() {
			for in := range lanes[i] {
				c := checked{in: in}
				c.f, c.ok = d.v.Verify(in.Data)
				select {
				case out <- c:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	src := d.cfg.Link.Frames()
	wg.Go(func() {
		defer func() {
			for _, l := range lanes {
				close(l)
			}
		}()
		lane := map[peer.ID]int{}
		for {
			select {
			case <-ctx.Done():
				return
			case in, ok := <-src:
				if !ok {
					return
				}
				i, seen := lane[in.From]
				if !seen {
					if len(lane) >= laneMembers {
						clear(lane)
					}
					i = len(lane) % VerifyLanes
					lane[in.From] = i
				}
				select {
				case lanes[i] <- in:
				case <-ctx.Done():
					return
				}
			}
		}
	})
}

func (d *Driver) stepChecked(c checked) {
	var err error
	if c.ok {
		err = d.n.StepVerified(c.in.From, c.f)
	} else {
		err = d.n.Step(c.in.From, c.in.Data)
	}
	if err != nil {
		d.log.Warn("game frame rejected", "peer", logPeer(c.in.From), "err", err)
	}
}
