package lockstep

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A machine crash takes the unflushed tail of player 0's log, its own
// signed messages among them, from its last chosen move on. The restored
// node signs nothing new (it would choose again, differently) until the
// others have told it what they hold and it has its messages back; then
// the game goes on, and nobody sees it contradict itself.
func TestRestoreRecoversOwnLostTail(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seed  uint64
		crash int
	}{
		{"early", 11, 60},
		{"mid-game", 12, 120},
		{"late", 13, 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, tc.seed, 3, 0, simFaults{}, false)
			s.machineCrash = true
			p := s.peers[0]
			var before uint64 // p's last sequence number when the machine stopped
			// The machine stops and its log keeps what came before p's
			// last chosen move: restored, p is asked for that move again.
			s.addAction(tc.crash, func(s *sim) {
				before = p.node.mySeq
				p.down = true
				keep := 0
				for i, r := range p.log {
					if m, err := decodeMessage(r.Data); err == nil && m.from == p.id && m.hasMove {
						keep = i
					}
				}
				if keep == 0 {
					t.Fatalf("tick %d: no chosen move of p's yet", s.now)
				}
				p.lost = len(p.log) - keep
				p.log = p.log[:keep:keep]
				s.addAction(s.now+30, func(s *sim) { s.restore(0) })
			})
			var atRestore uint64
			var signedEarly []string
			restored := false
			s.onRestore = func(s *sim, p *simPeer) {
				atRestore = p.node.mySeq
				restored = true
				if p.node.rec == nil {
					t.Errorf("restored node is not recovering")
				}
			}
			// A person may well choose another move the second time.
			p.onMove = func(s *sim, p *simPeer, e Event) {
				m := e.Moves[0]
				if restored {
					m = e.Moves[len(e.Moves)-1]
				}
				if err := p.node.Choose(m); err != nil {
					t.Fatalf("Choose(%s): %v", m, err)
				}
			}
			p.outbound = func(s *sim, to peer.ID, data []byte) []simFrame {
				if p.node.rec != nil && !isHave(data) && SignedBy(data) == p.id {
					if m, err := decodeMessage(data); err == nil && m.seq > before {
						signedEarly = append(signedEarly, m.kind.String())
					}
				}
				return []simFrame{{to, data}}
			}
			s.start()
			s.run()
			s.check(true)
			if len(signedEarly) > 0 {
				t.Errorf("signed %v while recovering", signedEarly)
			}
			if p.lost == 0 || atRestore >= before {
				t.Fatalf("the crash took no own message (lost %d records, seq %d of %d left)", p.lost, atRestore, before)
			}
			var recovered []string
			for _, e := range p.events {
				if e.Kind == EventRecovered {
					recovered = append(recovered, e.Detail)
				}
			}
			if len(recovered) != 1 || !strings.Contains(recovered[0], "every other player") {
				t.Errorf("recovered events %q, want one that heard every player", recovered)
			}
			t.Logf("lost %d records; own seq %d at the crash, %d after the restore, %d at the end", p.lost, before, atRestore, p.node.mySeq)
		})
	}
}

// Without answers nobody can say what it holds of ours: a restored node
// whose peers stay silent waits AbsentTicks, then signs on (the one case
// left in which a machine crash can end as equivocation), and says so.
func TestRecoveryGivesUpOnSilentPlayers(t *testing.T) {
	s := newSim(t, 21, 3, 0, simFaults{}, false)
	withAbsence(s, 30)
	s.start()
	s.run()
	p := s.peers[0]
	n, err := Restore(p.cfg, roundTripLog(t, p.log))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 29; i++ {
		n.Tick()
		if n.rec == nil {
			t.Fatalf("gave up after %d ticks, want 30", i+1)
		}
	}
	n.Tick()
	if n.rec != nil {
		t.Fatal("still recovering after AbsentTicks")
	}
	rd := n.Ready()
	var detail string
	var gaveUp []peer.ID
	for _, e := range rd.Events {
		if e.Kind == EventRecovered {
			detail, gaveUp = e.Detail, e.Peers
		}
	}
	if !strings.Contains(detail, "gave up") || len(gaveUp) != 2 {
		t.Errorf("recovered event %q naming %v, want it to say it gave up on the two others", detail, gaveUp)
	}
}

// A player that says it holds messages of ours is waited for however long
// it takes: signing without them would surely contradict them.
func TestRecoveryWaitsForOwnMessagesItWasToldOf(t *testing.T) {
	s := newSim(t, 22, 2, 0, simFaults{}, false)
	withAbsence(s, 10)
	s.start()
	s.run()
	p, q := s.peers[0], s.peers[1]
	own := 0
	for i := len(p.log) - 1; i > 0; i-- {
		m, err := decodeMessage(p.log[i].Data)
		if err != nil {
			t.Fatal(err)
		}
		if m.from == p.id {
			own = i
			break
		}
	}
	n, err := Restore(p.cfg, roundTripLog(t, p.log[:own])) // lost its last own message
	if err != nil {
		t.Fatal(err)
	}
	h := have{game: n.gid}
	for _, pl := range q.node.players {
		h.seqs = append(h.seqs, uint64(len(pl.msgs)))
	}
	if err := n.Step(q.id, h.encode()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		n.Tick()
	}
	if n.rec == nil {
		t.Fatal("stopped recovering without the message the other player holds")
	}
	last := q.node.players[0].msgs[len(q.node.players[0].msgs)-1]
	if err := n.Step(q.id, last.raw); err != nil {
		t.Fatal(err)
	}
	if n.rec != nil {
		t.Fatalf("still recovering with every own message back (seq %d, told of %d)", n.mySeq, h.seqs[0])
	}
}

// A player that keeps talking but still lacks some of our messages is
// waited for (it may hold later ones out of order); one that went quiet
// for AbsentTicks is given up on, and the event names it.
func TestRecoveryWaitsForTalkersNotForTheQuiet(t *testing.T) {
	s := newSim(t, 23, 3, 0, simFaults{}, false)
	withAbsence(s, 30)
	s.start()
	s.run()
	p, quiet, talker := s.peers[0], s.peers[1], s.peers[2]
	n, err := Restore(p.cfg, roundTripLog(t, p.log))
	if err != nil {
		t.Fatal(err)
	}
	status := func(ofOurs uint64) []byte {
		h := have{game: n.gid}
		for i := range n.players {
			h.seqs = append(h.seqs, uint64(len(n.players[i].msgs)))
		}
		h.seqs[0] = ofOurs
		return h.encode()
	}
	for tick := 1; tick <= 200; tick++ {
		if tick == 5 {
			_ = n.Step(quiet.id, status(n.mySeq-1)) // then nothing more
		}
		_ = n.Step(talker.id, status(n.mySeq-1)) // lags, says so every tick
		n.Tick()
		if n.rec == nil {
			t.Fatalf("tick %d: stopped recovering while a talking player still lacks our messages", tick)
		}
	}
	_ = n.Step(talker.id, status(n.mySeq))
	if n.rec != nil {
		t.Fatal("still recovering once the talker holds exactly our messages and the other was quiet for 195 ticks")
	}
	var named [][]peer.ID
	for _, e := range n.Ready().Events {
		if e.Kind == EventRecovered {
			named = append(named, e.Peers)
		}
	}
	if len(named) != 1 || len(named[0]) != 1 || named[0][0] != quiet.id {
		t.Errorf("recovered events naming %v, want one naming only the quiet player", named)
	}
}

// A restarted program says so in its status frames, so the others can tell
// their players it is back and catching up even when no connection went
// down (a restart quicker than the transport's heartbeat): each of them
// reports it once per restore, and never about itself.
func TestPeerRestoredToldOncePerRestore(t *testing.T) {
	for _, tc := range []struct {
		name     string
		restarts []int // ticks at which peer 0's program stops; it is back 20 ticks later
	}{
		{"none", nil},
		{"once", []int{80}},
		{"twice", []int{80, 240}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, 31, 3, 0, simFaults{}, false)
			for _, at := range tc.restarts {
				s.addAction(at, func(s *sim) {
					s.peers[0].down = true
					s.addAction(s.now+20, func(s *sim) { s.restore(0) })
				})
			}
			s.start()
			s.run()
			s.check(true)
			for i, p := range s.peers {
				want := len(tc.restarts)
				if i == 0 {
					want = 0
				}
				got := countEvents(p, EventPeerRestored, s.peers[0])
				if all := countEvents(p, EventPeerRestored, nil); got != want || all != want {
					t.Errorf("%s: %d peer-restored events about peer 0 (%d in all), want %d", short(p.id), got, all, want)
				}
			}
		})
	}
}

func TestHaveRecoveringRoundTrip(t *testing.T) {
	for _, h := range []*have{
		{game: GameID{1}, seqs: []uint64{3, 4}},
		{game: GameID{1}, seqs: []uint64{3, 4}, recovering: true},
		{game: GameID{2}},
		{game: GameID{2}, recovering: true},
	} {
		b := h.encode()
		got, err := decodeHave(b)
		if err != nil {
			t.Fatalf("%+v: %v", h, err)
		}
		if got.recovering != h.recovering || len(got.seqs) != len(h.seqs) || !bytes.Equal(got.encode(), b) {
			t.Errorf("%+v came back as %+v", h, got)
		}
	}
	for _, flags := range []byte{0, 2, 0xff} {
		b := append((&have{game: GameID{1}}).encode(), flags)
		if _, err := decodeHave(b); !errors.Is(err, ErrDecode) {
			t.Errorf("flags %#x: err %v, want ErrDecode", flags, err)
		}
	}
}

// A restored node's first status frame may go out before any connection
// is up; each player whose connection comes up while it recovers gets one
// of its own, saying it was restored.
func TestRecoveringNodeTellsAPlayerThatComesUp(t *testing.T) {
	s := newSim(t, 21, 3, 0, simFaults{}, false)
	s.start()
	s.run()
	p := s.peers[0]
	n, err := Restore(p.cfg, roundTripLog(t, p.log))
	if err != nil {
		t.Fatal(err)
	}
	n.Advance(n.Ready())
	other := s.peers[1].id
	for _, tc := range []struct {
		name       string
		recovering bool
		up         bool
		want       int
	}{
		{"down while recovering", true, false, 0},
		{"up while recovering", true, true, 1},
		{"up once recovered", false, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.recovering {
				n.rec = nil
			}
			n.Reachable(other, tc.up)
			got := 0
			rd := n.Ready()
			n.Advance(rd)
			for _, e := range rd.Messages {
				if h, err := decodeHave(e.Data); err == nil && isHave(e.Data) && e.To == other && h.recovering {
					got++
				}
			}
			if got != tc.want {
				t.Errorf("%d status frames saying it recovers sent to the player, want %d", got, tc.want)
			}
		})
	}
}
