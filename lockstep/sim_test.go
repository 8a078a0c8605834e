package lockstep

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/crypto"
	pb "github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/peer"
)

// This file is the seeded simulated network that drives Nodes in tests:
// per-frame drop, duplication and random delay (which reorders), full and
// partial partitions, and crash + restart of any peer from its own log.
// Everything is drawn from one seed, so a failing seed replays exactly.

// fakeKey is a test-only signature scheme (HMAC keyed by the peer ID) that
// the thousands-of-games simulation uses instead of Ed25519, whose verify
// would dominate its run time; every other test uses real libp2p keys.
type fakeKey struct{ id peer.ID }

func fakeSig(id peer.ID, data []byte) []byte {
	h := sha256.New()
	h.Write([]byte("sim-secret/" + string(id) + "\n"))
	h.Write(data)
	return h.Sum(nil)[:16]
}

func fakeVerify(id peer.ID, data, sig []byte) bool { return bytes.Equal(fakeSig(id, data), sig) }

func (k fakeKey) Sign(data []byte) ([]byte, error) { return fakeSig(k.id, data), nil }
func (k fakeKey) GetPublic() crypto.PubKey         { return nil }
func (k fakeKey) Equals(o crypto.Key) bool         { return false }
func (k fakeKey) Raw() ([]byte, error)             { return []byte(k.id), nil }
func (k fakeKey) Type() pb.KeyType                 { return pb.KeyType_Ed25519 }

// simFaults are the fault rates of one simulated game.
type simFaults struct {
	drop, dup  float64 // per frame
	maxDelay   int     // frames take 1..maxDelay ticks (more than 1 reorders)
	partitions int     // number of partition episodes
	crashes    int     // number of crash + restart episodes
}

func (f simFaults) any() bool {
	return f.drop > 0 || f.dup > 0 || f.maxDelay > 1 || f.partitions > 0 || f.crashes > 0
}

type simPeer struct {
	id      peer.ID
	cfg     Config
	node    *Node
	log     []Record // what reached the log (the page cache)
	flushed int      // how much of log is on the disk (see sim.flushEvery)
	lost    int      // log records a machine crash took
	rng     engine.Rand
	down    bool
	cheater bool
	events  []Event
	at      []int   // the tick of each event
	waits   []Event // its EventWaiting, kept apart from events
	// rollDelay > 0 makes a manual player (AutoRoll off, see setManual) that
	// rolls 1..rollDelay ticks after it is asked; rolled[k] is the tick it
	// rolled roll k.
	rollDelay int
	rolled    map[uint64]int
	// outbound rewrites or suppresses frames (cheating peers); nil sends as is.
	outbound func(s *sim, to peer.ID, data []byte) []simFrame
	// onMove chooses the local move; nil picks at random.
	onMove func(s *sim, p *simPeer, e Event)
	// goOnAfter > 0 calls GoOn that many ticks after each
	// EventAloneDecision (a person deciding); 0 keeps waiting.
	goOnAfter int
	soloSeen  bool // a Ready's State said SoloDice
	epoch     int  // restarts so far: a watcher reading its log starts over
}

type simFrame struct {
	to   peer.ID
	data []byte
}

type delivery struct {
	at       int
	seq      int
	from, to int
	data     []byte
}

type sim struct {
	t      testing.TB
	seed   uint64
	rng    *rand.Rand
	peers  []*simPeer
	queue  map[int][]delivery // by delivery tick, in posting order
	now    int
	seq    int
	faults simFaults
	// cut[a][b]: frames from a to b are lost (partitions)
	cut       [][]bool
	schedule  []simAction
	frames    int
	maxTicks  int
	realKeys  bool
	onDeliver func(s *sim, d delivery) // observes deliveries (tests)
	// flushEvery is how often, in ticks, the drivers fsync their logs
	// (0: every tick); machineCrash makes a crash lose what was not
	// flushed, all or part of it, own messages included, as a stopped
	// machine does (a killed process loses nothing it wrote).
	flushEvery   int
	machineCrash bool
	onRestore    func(s *sim, p *simPeer) // observes a restored peer (tests)
	minTicks     int                      // run at least this long, done or not
	// provisional is the tick of the last game over reached while going
	// on without someone (its Detail says so): the run goes on a while
	// after it, so halves of a split that both finished meet again.
	provisional int
	leaves      int  // players that leave (faultySim)
	goOn        bool // the peers go on alone (faultySim)
	// watchers follow the game from the peers' logs (watch_sim_test.go),
	// with randomness of their own.
	watchers []*simWatcher
	wrng     *rand.Rand
	// host[i] is the program peer i's seat runs in (nil: a program each):
	// seats of one program (hot seat, a Hub) reach each other at once and
	// whole, whatever the network does (sim_hotseat_test.go).
	host []int
}

type simAction struct {
	at int
	do func(s *sim)
}

// newSim builds a game of nPlayers peers and nBots bot seats.
func newSim(t testing.TB, seed uint64, nPlayers, nBots int, faults simFaults, realKeys bool) *sim {
	s := &sim{t: t, seed: seed, rng: rand.New(rand.NewPCG(seed, 0x5eed)), faults: faults, maxTicks: 200000, queue: map[int][]delivery{}, realKeys: realKeys}
	colours := []engine.Colour{engine.Red, engine.Blue, engine.Yellow, engine.Green}
	s.rng.Shuffle(len(colours), func(i, j int) { colours[i], colours[j] = colours[j], colours[i] })
	colours = colours[:nPlayers+nBots]
	sort.Slice(colours, func(i, j int) bool { return colours[i] < colours[j] })
	setup := Setup{Version: Version, Name: fmt.Sprintf("sim-%d", seed)}
	for i := range 16 {
		setup.Nonce[i] = byte(s.rng.Uint32())
	}
	playerAt := s.rng.Perm(len(colours))[:nPlayers]
	isPlayer := map[int]bool{}
	for _, i := range playerAt {
		isPlayer[i] = true
	}
	var keys []crypto.PrivKey
	for i, c := range colours {
		st := Seat{Colour: c}
		if isPlayer[i] {
			var id peer.ID
			var key crypto.PrivKey
			if realKeys {
				var err error
				key, _, err = crypto.GenerateEd25519Key(seededReader{s.rng})
				if err != nil {
					t.Fatal(err)
				}
				id, _ = peer.IDFromPrivateKey(key)
			} else {
				id = peer.ID(fmt.Sprintf("sim-%d-%c", seed, c.Letter()))
				key = fakeKey{id}
			}
			st.Player = id
			keys = append(keys, key)
			s.peers = append(s.peers, &simPeer{id: id})
		} else {
			st.Bot = "random"
		}
		setup.Seats = append(setup.Seats, st)
	}
	for i, p := range s.peers {
		var ent [32]byte
		for j := range ent {
			ent[j] = byte(s.rng.Uint32())
		}
		p.cfg = Config{Setup: setup, Self: p.id, Key: keys[i], Entropy: ent, AutoRoll: true, AbsentTicks: -1}
		if !realKeys {
			p.cfg.verify = fakeVerify
		}
		p.rng = engine.NewRand(s.rng.Uint64())
	}
	s.cut = make([][]bool, len(s.peers))
	for i := range s.cut {
		s.cut[i] = make([]bool, len(s.peers))
	}
	return s
}

type seededReader struct{ r *rand.Rand }

func (r seededReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(r.r.Uint32())
	}
	return len(b), nil
}

func (s *sim) start() {
	for _, p := range s.peers {
		n, err := NewNode(p.cfg)
		if err != nil {
			s.t.Fatalf("seed %d: NewNode: %v", s.seed, err)
		}
		p.node = n
	}
}

func (s *sim) index(id peer.ID) int {
	for i, p := range s.peers {
		if p.id == id {
			return i
		}
	}
	return -1
}

// post queues a frame from peer i, applying the network's faults.
func (s *sim) post(i int, to peer.ID, data []byte) {
	var dests []int
	if to == "" {
		for j := range s.peers {
			if j != i {
				dests = append(dests, j)
			}
		}
	} else if j := s.index(to); j >= 0 {
		dests = []int{j}
	}
	for _, j := range dests {
		s.frames++
		if s.host != nil && s.host[i] == s.host[j] {
			s.seq++
			s.queue[s.now+1] = append(s.queue[s.now+1], delivery{at: s.now + 1, seq: s.seq, from: i, to: j, data: data})
			continue
		}
		if s.cut[i][j] || (s.faults.drop > 0 && s.rng.Float64() < s.faults.drop) {
			continue
		}
		copies := 1
		if s.faults.dup > 0 && s.rng.Float64() < s.faults.dup {
			copies = 2
		}
		for range copies {
			delay := 1
			if s.faults.maxDelay > 1 {
				delay += s.rng.IntN(s.faults.maxDelay)
			}
			s.seq++
			at := s.now + delay
			s.queue[at] = append(s.queue[at], delivery{at: at, seq: s.seq, from: i, to: j, data: data})
		}
	}
}

// drain handles every peer's Ready until none has anything.
func (s *sim) drain() {
	for again := true; again; {
		again = false
		for i, p := range s.peers {
			if p.down || !p.node.HasReady() {
				continue
			}
			again = true
			rd := p.node.Ready()
			p.soloSeen = p.soloSeen || rd.State.SoloDice
			p.log = append(p.log, rd.LogEntries...)
			for _, e := range rd.Messages {
				if p.outbound != nil {
					for _, f := range p.outbound(s, e.To, e.Data) {
						s.post(i, f.to, f.data)
					}
					continue
				}
				s.post(i, e.To, e.Data)
			}
			for _, e := range rd.Events {
				if e.Kind == EventGameOver && e.Detail != "" {
					s.provisional = s.now
				}
				if e.Kind != EventWaiting {
					p.events = append(p.events, e)
					p.at = append(p.at, s.now)
				} else {
					p.waits = append(p.waits, e)
				}
			}
			p.node.Advance(rd)
			for _, e := range rd.Events {
				if e.Kind == EventYourRoll && p.rollDelay > 0 {
					s.rollLater(p, e.Roll, 1+s.rng.IntN(p.rollDelay))
				} else if e.Kind == EventYourRoll {
					if err := p.node.Roll(); err != nil {
						s.t.Fatalf("seed %d: Roll: %v", s.seed, err)
					}
				}
				if e.Kind == EventAloneDecision && p.goOnAfter > 0 {
					s.addAction(s.now+p.goOnAfter, func(s *sim) {
						if !p.down {
							_ = p.node.GoOn() // ErrNoDecision: it resolved meanwhile
						}
					})
				}
				if e.Kind == EventYourMove {
					if p.onMove != nil {
						p.onMove(s, p, e)
					} else {
						m := e.Moves[p.rng.Intn(len(e.Moves))]
						if err := p.node.Choose(m); err != nil {
							s.t.Fatalf("seed %d: %s Choose(%s): %v", s.seed, short(p.id), m, err)
						}
					}
				}
			}
		}
	}
}

// setManual makes peer i roll by hand (AutoRoll off), 1..delay ticks
// after each EventYourRoll. Call it before start.
func (s *sim) setManual(i, delay int) {
	p := s.peers[i]
	p.cfg.AutoRoll = false
	p.rollDelay = delay
	p.rolled = map[uint64]int{}
}

// rollLater is a person pressing the roll key a while after being asked.
func (s *sim) rollLater(p *simPeer, k uint64, after int) {
	s.addAction(s.now+after, func(s *sim) {
		if p.down {
			return // a crashed peer's restored node asks again
		}
		if p.node.paused() {
			s.rollLater(p, k, 1) // the person presses the key again once the game goes on
			return
		}
		if _, ok := p.rolled[k]; !ok {
			p.rolled[k] = s.now
		}
		if err := p.node.Roll(); err != nil && !errors.Is(err, ErrLeft) {
			s.t.Fatalf("seed %d: Roll: %v", s.seed, err)
		}
	})
}

// done reports whether every honest peer that is up has finished.
func (s *sim) done() bool {
	for _, p := range s.peers {
		if p.cheater {
			continue
		}
		if p.down || (p.node.g.phase != PhaseOver && p.node.g.phase != PhaseHalted) {
			return false
		}
	}
	return true
}

// run plays until every honest peer is done or maxTicks pass.
func (s *sim) run() {
	s.drain()
	doneAt := 0
	watching := func() bool { // the watchers catch up within 2000 ticks of the end
		if doneAt == 0 {
			doneAt = s.now
		}
		return !s.watchersDone() && s.now <= doneAt+2000
	}
	for s.now = 1; s.now <= s.maxTicks && (!s.done() || watching() || s.now <= s.minTicks || s.provisional > 0 && s.now <= s.provisional+300); s.now++ {
		for len(s.schedule) > 0 && s.schedule[0].at <= s.now {
			a := s.schedule[0]
			s.schedule = s.schedule[1:]
			a.do(s)
			s.drain()
		}
		due := s.queue[s.now]
		delete(s.queue, s.now)
		for _, d := range due {
			p := s.peers[d.to]
			if p.down {
				continue
			}
			if s.onDeliver != nil {
				s.onDeliver(s, d)
			}
			_ = p.node.Step(s.peers[d.from].id, d.data) // bad frames are the point of some tests
			s.drain()
		}
		for _, p := range s.peers {
			if !p.down {
				p.node.Tick()
			}
		}
		s.drain()
		s.watchTick()
		if s.flushEvery <= 1 || s.now%s.flushEvery == 0 {
			for _, p := range s.peers {
				p.flushed = len(p.log)
			}
		}
	}
}

// partition cuts the links between the groups for dur ticks from at; oneWay
// cuts only a→b (a partial partition).
func (s *sim) partition(at, dur, a, b int, oneWay bool) {
	s.addAction(at, func(s *sim) {
		s.cut[a][b] = true
		if !oneWay {
			s.cut[b][a] = true
		}
	})
	s.addAction(at+dur, func(s *sim) { s.cut[a][b], s.cut[b][a] = false, false })
}

func (s *sim) isolate(at, dur, a int) {
	for b := range s.peers {
		if b != a {
			s.partition(at, dur, a, b, false)
		}
	}
}

// crash stops peer i at tick at and restarts it from its log dur ticks later.
func (s *sim) crash(at, dur, i int) {
	s.addAction(at, func(s *sim) {
		p := s.peers[i]
		p.down = true
		if s.machineCrash {
			// The driver flushes the setup record before anything is
			// sent (p2p's logReady), so a log always starts a game.
			lo := min(max(p.flushed, 1), len(p.log))
			keep := lo + s.rng.IntN(len(p.log)-lo+1)
			p.lost += len(p.log) - keep
			p.log = p.log[:keep:keep]
			// A machine takes far longer to start again than a frame
			// takes to arrive: every status frame the restored node
			// hears was sent after the frames in flight had landed.
			dur = max(dur, 2*s.faults.maxDelay+1)
		}
		s.addAction(s.now+dur, func(s *sim) { s.restore(i) })
	})
}

// restore restarts crashed peer i from what its log kept.
func (s *sim) restore(i int) {
	p := s.peers[i]
	p.flushed = len(p.log) // savegame.OpenLog fsyncs a log it reopens
	recs := roundTripLog(s.t, p.log)
	n, err := Restore(p.cfg, recs)
	if err != nil {
		s.t.Fatalf("seed %d: restore %s: %v", s.seed, short(p.id), err)
	}
	p.node = n
	p.down = false
	p.epoch++
	if s.machineCrash {
		// The moves the lost tail held are applied again: forget
		// their first showing, as a driver's fresh screen does.
		var evs []Event
		var at []int
		for j, e := range p.events {
			if e.Kind != EventMoved || e.Roll < n.g.k || n.g.phase == PhaseOver {
				evs, at = append(evs, e), append(at, p.at[j])
			}
		}
		p.events, p.at = evs, at
	}
	if s.onRestore != nil {
		s.onRestore(s, p)
	}
}

func (s *sim) addAction(at int, do func(s *sim)) {
	s.schedule = append(s.schedule, simAction{at: at, do: do})
	sort.SliceStable(s.schedule, func(a, b int) bool { return s.schedule[a].at < s.schedule[b].at })
}

// check asserts what every simulated game must show: honest peers that
// finished agree on the history and the final position, and applied every
// roll exactly once.
func (s *sim) check(wantFinish bool) {
	var ref *simPeer
	for _, p := range s.peers {
		if p.cheater || p.down {
			continue
		}
		g := &p.node.g
		if g.loopGuard > 0 {
			s.t.Fatalf("seed %d: %s refused %d undos for want of news, the last %s: its live path and rollbackIfExcluded disagree%s", s.seed, short(p.id), g.loopGuard, g.guardWhy, s.describe())
		}
		if wantFinish && g.phase != PhaseOver {
			s.t.Fatalf("seed %d: %s did not finish: phase %s roll %d after %d ticks (awaiting %v)%s",
				s.seed, short(p.id), g.phase, g.k, s.now, p.node.state().Awaiting, s.describe())
		}
		if g.phase != PhaseOver {
			continue
		}
		// Every roll 1..k-1 was applied exactly once, in order.
		next := uint64(1)
		var mismatch *Event // a peer that went on alone sees mismatches until it rolls back
		for _, e := range p.events {
			if e.Kind == EventRolledBack {
				next = max(e.Roll, 1) // undone to roll 0: the first move is roll 1's
				mismatch = nil
			}
			// A peer that rolled back signed reveals on its undone branch:
			// another may read them before their supersede (alone.go: both
			// halves of a split undo their branches).
			if e.Kind == EventStateMismatch && !s.peers[s.index(e.Peer)].cheater && countEvents(s.peers[s.index(e.Peer)], EventRolledBack, nil) == 0 {
				mismatch = &e
			}
			if e.Kind == EventMoved {
				if e.Roll != next {
					s.t.Fatalf("seed %d: %s applied roll %d when %d was next", s.seed, short(p.id), e.Roll, next)
				}
				next++
			}
			if e.Kind == EventHalted {
				s.t.Fatalf("seed %d: %s: %s%s", s.seed, short(p.id), e, s.describe())
			}
		}
		if mismatch != nil {
			s.t.Fatalf("seed %d: %s: %s%s", s.seed, short(p.id), mismatch, s.describe())
		}
		if next != g.k {
			s.t.Fatalf("seed %d: %s moved %d times for %d rolls", s.seed, short(p.id), next-1, g.k-1)
		}
		if ref == nil {
			ref = p
			continue
		}
		rg := &ref.node.g
		if g.hist != rg.hist || g.pos != rg.pos {
			s.t.Fatalf("seed %d: %s and %s finished differently: %x %s vs %x %s", s.seed, short(p.id), short(ref.id), g.hist[:6], g.pos.String(), rg.hist[:6], rg.pos.String())
		}
	}
	if wantFinish && ref == nil {
		s.t.Fatalf("seed %d: no honest peer finished", s.seed)
	}
}

func (s *sim) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n  replay: go test ./lockstep -run 'TestSim' -sim.seed=%d (faults %+v)", s.seed, s.faults)
	for _, p := range s.peers {
		g := &p.node.g
		fmt.Fprintf(&b, "\n  %s manual=%v down=%v phase=%s k=%d hist=%x stats=%+v", short(p.id), p.rollDelay > 0, p.down, g.phase, g.k, g.hist[:4], g.stats)
		var tail []string
		for _, e := range p.events[max(0, len(p.events)-4):] {
			tail = append(tail, e.String())
		}
		fmt.Fprintf(&b, " last: %s", strings.Join(tail, " | "))
	}
	return b.String()
}

// roundTripLog writes records through the log file format, adds a torn
// half record as a crash in the middle of an append leaves, reads the file
// back, checks the tear is found and truncates it, as a driver's resume does.
func roundTripLog(t testing.TB, recs []Record) []Record {
	t.Helper()
	file := append(LogHeader(), EncodeRecords(recs...)...)
	good := len(file)
	extra := EncodeRecords(Record{Type: RecordMessage, Data: []byte("never flushed")})
	file = append(file, extra[:len(extra)/2]...)
	_, err := ParseLog(file)
	var le *LogError
	if !errors.As(err, &le) || !le.Torn || le.Offset != int64(good) {
		t.Fatalf("torn tail: got %v, want a torn tail at %d", err, good)
	}
	got, err := ParseLog(file[:le.Offset])
	if err != nil || len(got) != len(recs) {
		t.Fatalf("re-reading the truncated log: %d records, %v", len(got), err)
	}
	return got
}
