package lockstep

import (
	"bytes"
	"math/rand/v2"
)

// simWatcher is a spectator of a simulated game: from tick at on it
// reads one peer's log as that peer's watch server serves it (each tick
// a batch of the records flushed so far), checks every record with a
// referee of its own (an observer node), and keeps what the referee
// accepted, as a spectator's saved log. When the peer it reads is down,
// a cheater, or restarted (its log's epoch changed: what a restart
// serves is a new log), it reads another's from the start: what the
// referee holds already it ignores.
type simWatcher struct {
	at       int
	from     int // index of the peer read
	epoch    int // that peer's restarts when reading began
	next     int // the next record of its log
	node     *Node
	log      []Record
	switches int
}

// watch adds n watchers that join at different ticks (the first at the
// start, the others spread over the first few hundred ticks), each
// reading a different peer first. Their randomness is their own: the
// game's seeded faults play out exactly as without them.
func (s *sim) watch(n int) {
	s.wrng = rand.New(rand.NewPCG(s.seed, 0x3a7c4))
	for k := range n {
		s.watchers = append(s.watchers, &simWatcher{at: k * 97, from: k % len(s.peers)})
	}
}

// watchTick lets every watcher read what its peer's log holds now.
func (s *sim) watchTick() {
	for _, w := range s.watchers {
		if s.now < w.at {
			continue
		}
		p := s.peers[w.from]
		// A watch server serves only what reached the disk (the log's
		// flushed part): a machine crash can take the rest, and the
		// restored node may sign other messages in their place.
		served := p.log[:min(p.flushed, len(p.log))]
		if p.down || p.cheater || p.epoch != w.epoch || w.next > len(served) {
			w.from = (w.from + 1) % len(s.peers)
			w.epoch, w.next = s.peers[w.from].epoch, 0
			w.switches++
			continue
		}
		end := min(len(served), w.next+1+s.wrng.IntN(40))
		for k := w.next; k < end; k++ {
			r := served[k]
			if k == 0 {
				if r.Type != RecordSetup || !bytes.Equal(r.Data, p.cfg.Setup.Encode()) {
					s.t.Fatalf("seed %d: %s's log does not start with the setup", s.seed, short(p.id))
				}
				if w.node == nil {
					n, err := NewNode(Config{Setup: p.cfg.Setup, verify: p.cfg.verify})
					if err != nil {
						s.t.Fatal(err)
					}
					w.node = n
				}
				continue
			}
			// An honest peer's log holds only what its node accepted:
			// the referee accepts it too, whatever it holds already.
			if err := w.node.Step(p.id, r.Data); err != nil {
				s.t.Fatalf("seed %d: a watcher reading %s's log, record %d: %v%s", s.seed, short(p.id), k, err, s.describe())
			}
		}
		w.next = end
		if w.node != nil {
			rd := w.node.Ready()
			if len(rd.Messages) > 0 {
				s.t.Fatalf("seed %d: a watcher's referee sends %d frames", s.seed, len(rd.Messages))
			}
			w.log = append(w.log, rd.LogEntries...)
			w.node.Advance(rd)
		}
	}
}

// watchersDone reports whether every watcher's referee saw the end.
func (s *sim) watchersDone() bool {
	for _, w := range s.watchers {
		if w.node == nil || w.node.g.phase != PhaseOver {
			return false
		}
	}
	return true
}

// checkWatchers asserts that every watcher ended with the honest peers'
// history and position (0 divergence), and that its saved log verifies
// to that history.
func (s *sim) checkWatchers() {
	var ref *simPeer
	for _, p := range s.peers {
		if !p.cheater && !p.down && p.node.g.phase == PhaseOver {
			ref = p
			break
		}
	}
	if ref == nil {
		return
	}
	for i, w := range s.watchers {
		if w.node == nil || w.node.g.phase != PhaseOver || w.node.g.hist != ref.node.g.hist || w.node.g.pos != ref.node.g.pos {
			ph := Phase(0)
			if w.node != nil {
				ph = w.node.g.phase
			}
			s.t.Fatalf("seed %d: watcher %d (from tick %d, %d switches) ended in phase %s, not with the players' history%s", s.seed, i, w.at, w.switches, ph, s.describe())
		}
		recs, err := ParseLog(append(LogHeader(), EncodeRecords(w.log...)...))
		if err != nil {
			s.t.Fatal(err)
		}
		v, err := verifyRecords(recs, ref.cfg.verify)
		if err != nil || v.History != ref.node.g.hist || v.Phase != PhaseOver {
			s.t.Fatalf("seed %d: watcher %d's saved log: %v (%+v)", s.seed, i, err, v)
		}
	}
}
