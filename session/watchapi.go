package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// ServeWatchers serves game gid's log, as it is written through the Log
// returned, to the peers watching it on h, with the limits a NetSession
// serves its watchers with (its one server): for a program that drives a
// game without a NetSession (the benchmarks). stop ends the serving.
func ServeWatchers(h host.Host, gid lockstep.GameID, log lockstep.Log) (lockstep.Log, func()) {
	srv := newWatchServer(gid, false, nil)
	srv.cut = func(id peer.ID) { go p2p.ClosePeer(h, id) }
	stop := p2p.ServeWatch(h, srv.answer)
	return watchLog{Log: log, srv: srv}, func() { srv.close(); stop() }
}

// WatchFrom watches game gid on h from one player's log (the player must
// be connected) until the game is over, every record checked by a
// referee of its own (lockstep.NewObserver) as a NetSession's Watch
// checks it; it returns the final state and the records the referee
// accepted, a log like a player's. Any record that fails the checks
// ends it with the error.
func WatchFrom(ctx context.Context, h host.Host, player peer.ID, gid lockstep.GameID, name string) (lockstep.State, []lockstep.Record, error) {
	var node *lockstep.Node
	var saved []lockstep.Record
	var st lockstep.State
	from := uint32(0)
	for st.Phase != lockstep.PhaseOver && st.Phase != lockstep.PhaseHalted {
		b, err := p2p.QueryWatch(ctx, h, player, encodeWatchRequest(watchRequest{Game: gid, From: from, Name: name}))
		var a watchAnswer
		if err == nil {
			a, err = decodeWatchAnswer(b)
		}
		if err == nil && (a.Status != watchOK || a.From != from) {
			err = fmt.Errorf("the player answered %s from record %d", a.Status, a.From)
		}
		if err != nil {
			if ctx.Err() != nil {
				return st, saved, ctx.Err()
			}
			select {
			case <-ctx.Done():
				return st, saved, ctx.Err()
			case <-time.After(watchFind):
			}
			continue
		}
		for i, r := range a.Records {
			switch k := int(from) + i; {
			case k == 0:
				setup, err := lockstep.DecodeSetup(r.Data)
				if err != nil || setup.GameID() != gid {
					return st, saved, fmt.Errorf("the player's log is not of game %s (%v)", gid, err)
				}
				if node, err = lockstep.NewObserver(setup); err != nil {
					return st, saved, err
				}
			case node == nil || r.Type != lockstep.RecordMessage:
				return st, saved, errors.New("the player's log does not start with its setup")
			default:
				if err := node.Step(player, r.Data); err != nil {
					return st, saved, fmt.Errorf("record %d: %w", k, err)
				}
			}
		}
		from += uint32(len(a.Records))
		if node != nil {
			rd := node.Ready()
			saved = append(saved, rd.LogEntries...)
			node.Advance(rd)
			st = rd.State
		}
	}
	return st, saved, nil
}
