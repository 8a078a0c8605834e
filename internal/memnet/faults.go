package memnet

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Faults, in the style of etcd raft's rafttest network: a rate per
// (from, to) pair for drop, delay and duplicate, partitions, and crashes.
// Any is the wildcard: a rule for (Any, id) applies to every sender to id.
// The faults hold for frames sent after they are set; all decisions come
// from one random source (Seed), so a test that sends in a fixed order
// gets the same losses every run.
//
// Invariants: a frame is lost, delivered once, or delivered twice (never
// more); a delayed frame may overtake or be overtaken by later ones (that
// is the reordering the delay models); nothing reaches or leaves a crashed
// player, and what was queued for it when it crashed is gone.

// Any matches every player in a fault rule.
const Any peer.ID = ""

type pair struct{ from, to peer.ID }

type delayRule struct {
	d    time.Duration
	rate float64
}

type faults struct {
	mu        sync.Mutex
	rng       *rand.Rand
	drop, dup map[pair]float64
	delay     map[pair]delayRule
	group     map[peer.ID]int // partition side; nil when healed
}

func (f *faults) init() {
	f.rng = rand.New(rand.NewPCG(1, 2))
	f.drop, f.dup, f.delay = map[pair]float64{}, map[pair]float64{}, map[pair]delayRule{}
}

// rule is the most specific rule for from→to: exact, then either side
// wildcarded, then both.
func rule[V any](m map[pair]V, from, to peer.ID) (V, bool) {
	for _, p := range [...]pair{{from, to}, {from, Any}, {Any, to}, {Any, Any}} {
		if v, ok := m[p]; ok {
			return v, true
		}
	}
	var zero V
	return zero, false
}

// Seed restarts the fault decisions from seed.
func (n *Net) Seed(seed uint64) {
	n.f.mu.Lock()
	defer n.f.mu.Unlock()
	n.f.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// DropRate loses each frame from→to with probability rate (0 clears it).
func (n *Net) DropRate(from, to peer.ID, rate float64) {
	n.f.mu.Lock()
	defer n.f.mu.Unlock()
	setRate(n.f.drop, pair{from, to}, rate)
}

// DuplicateRate delivers each frame from→to twice with probability rate.
func (n *Net) DuplicateRate(from, to peer.ID, rate float64) {
	n.f.mu.Lock()
	defer n.f.mu.Unlock()
	setRate(n.f.dup, pair{from, to}, rate)
}

// DelayRate holds each frame from→to back by d with probability rate, so
// it arrives after frames sent later.
func (n *Net) DelayRate(from, to peer.ID, d time.Duration, rate float64) {
	n.f.mu.Lock()
	defer n.f.mu.Unlock()
	if rate <= 0 || d <= 0 {
		delete(n.f.delay, pair{from, to})
		return
	}
	n.f.delay[pair{from, to}] = delayRule{d, rate}
}

func setRate(m map[pair]float64, p pair, rate float64) {
	if rate <= 0 {
		delete(m, p)
		return
	}
	m[p] = rate
}

// Partition splits the players into groups: frames between groups are
// lost. A player in no group is alone. Heal joins them again.
func (n *Net) Partition(groups ...[]peer.ID) {
	n.f.mu.Lock()
	defer n.f.mu.Unlock()
	n.f.group = map[peer.ID]int{}
	for i, g := range groups {
		for _, id := range g {
			n.f.group[id] = i + 1
		}
	}
}

// Heal ends a partition.
func (n *Net) Heal() {
	n.f.mu.Lock()
	defer n.f.mu.Unlock()
	n.f.group = nil
}

// Crash stops id's end: what it sends and what is sent to it are lost, and
// what was queued for it is dropped, until Restart. The test stops id's
// Driver itself (its process died) and starts a new one after Restart.
func (n *Net) Crash(id peer.ID) {
	l := n.links[id]
	if l == nil {
		return
	}
	l.mu.Lock()
	l.down = true
	l.epoch++
	clear(l.q)
	l.q = l.q[:0]
	l.mu.Unlock()
	select {
	case l.reset <- struct{}{}:
	default:
	}
}

// Restart brings a crashed id back with an empty queue.
func (n *Net) Restart(id peer.ID) {
	if l := n.links[id]; l != nil {
		l.mu.Lock()
		l.down = false
		l.mu.Unlock()
	}
}

// fate decides one frame from→to: how many copies arrive (0, 1 or 2) and
// after what delay.
func (n *Net) fate(from, to peer.ID) (copies int, delay time.Duration) {
	f := &n.f
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.group != nil && f.group[from] != f.group[to] || f.group != nil && f.group[from] == 0 {
		return 0, 0
	}
	if r, ok := rule(f.drop, from, to); ok && f.rng.Float64() < r {
		return 0, 0
	}
	copies = 1
	if r, ok := rule(f.dup, from, to); ok && f.rng.Float64() < r {
		copies = 2
	}
	if r, ok := rule(f.delay, from, to); ok && f.rng.Float64() < r.rate {
		delay = r.d
	}
	return copies, delay
}
