package lockstep

import (
	"bytes"
	"errors"
	"fmt"

	"aeroplane/engine"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Defaults of Config's waits: a player is waited DefaultAbsentTicks for
// a reveal, and ChoosePerAbsent times as long when a person may be
// thinking (to choose or to roll). Drivers that act for a person before
// the others give up (session rolls for a slow player) derive their
// own timing from these.
const (
	DefaultAbsentTicks = 50
	ChoosePerAbsent    = 20
)

// Config is what a Node needs. Setup, Self (for a player), Key and Entropy are required.
type Config struct {
	Setup Setup
	// Self is the local player's peer ID; empty makes an observer that only
	// checks what it is fed (aeroplane verify uses one).
	Self peer.ID
	// Key signs the local player's messages; it must match Self.
	Key crypto.PrivKey
	// Entropy seeds the local hash chain. The caller draws it from
	// crypto/rand and keeps it private (never in the shareable log): Restore
	// needs the same bytes.
	Entropy [32]byte
	// AutoRoll reveals the local player's link as soon as it may, so the
	// player never has to call Roll. Without it every roll of the player's
	// own, an extra roll after its own move too, waits for Roll
	// (EventYourRoll).
	AutoRoll bool
	// ChainLen is the number of links per chain epoch (DefaultChainLen when 0).
	ChainLen int
	// ResendTicks is how often, in ticks, a status frame asks others for
	// what we lack (default 3).
	ResendTicks int
	// AbsentTicks is how long, in ticks, the game waits for a player's
	// reveal (sent automatically, so only a dead or cut-off peer is late)
	// before voting it absent (DefaultAbsentTicks; 0 uses the default, negative
	// never votes).
	AbsentTicks int
	// ChooseTicks is how long the game waits for a player to choose a move
	// or to roll (a person thinking) before voting it absent (default
	// ChoosePerAbsent × AbsentTicks).
	ChooseTicks int
	// GoOnAlone makes the node decide by itself to go on when every
	// present player voted the missing ones absent but they are no
	// majority (EventAloneDecision; see Node.GoOn): for headless peers.
	// Without it the node waits for GoOn.
	GoOnAlone bool
	// Take makes the node a newcomer asking for a seat of the running
	// game (takeseat.go); Self then holds no seat in the Setup.
	Take *Take

	// verify replaces signature checks in simulations that run thousands
	// of games; nil uses the peer ID's Ed25519 public key.
	verify func(id peer.ID, data, sig []byte) bool
}

// Envelope is a frame to send. To is one peer, or empty for every other player.
type Envelope struct {
	To   peer.ID
	Data []byte
}

// Phase is where the game is.
type Phase uint8

// The phases of a game.
const (
	PhaseSetup  Phase = iota // waiting for every player's Confirm
	PhaseReveal              // collecting the links for roll State.Roll
	PhaseMove                // roll State.Roll is known; waiting for the mover
	PhaseOver                // the game is over and every present player agreed on the end
	PhaseHalted              // the game cannot go on safely (see EventHalted)
)

func (p Phase) String() string {
	return [...]string{"setup", "reveal", "move", "over", "halted"}[p]
}

// State is the node's view of the game after the events of a Ready.
type State struct {
	Phase    Phase
	Pos      engine.Position
	Roll     uint64        // index of the roll being collected or played
	Value    int           // its face once known (PhaseMove), else 0
	Awaiting []peer.ID     // players whose reveal or move the game waits for
	Moves    []engine.Move // the local player's choices when it must Choose
	Absent   []peer.ID     // players whose seats bots fly now
	History  [32]byte      // hash of the agreed history so far
	// Missing lists the players a pending lone decision is about
	// (EventAloneDecision): GoOn hands their seats to bots.
	Missing []peer.ID
	// SoloDice: one player's link alone makes the rolls now; that player
	// knows its chain, so it can foresee every roll until another
	// player is back. Screens should say so.
	SoloDice bool
	// Paused: every present player paused (Node.Pause) and nobody
	// signs until they continue; the game stops at roll Roll.
	Paused bool
}

// Ready is what the driver must do: write LogEntries to the log (through
// to the operating system, so that a killed process loses none of them),
// then send Messages, then show Events; then call Advance. Flushing the
// log to disk may wait (Driver: once a tick): what a machine crash takes
// from its tail the restored node fetches back from the other players
// before it signs anything new (PROTOCOL.md's crash rule, recover.go).
type Ready struct {
	Messages   []Envelope
	Events     []Event
	LogEntries []Record
	State      State
}

// Node is one peer's protocol state machine. It is not safe for concurrent
// use: one goroutine drives it.
type Node struct {
	cfg     Config
	gid     GameID
	rules   engine.Rules
	chainL  uint64
	players []*player
	pidx    map[peer.ID]int
	seat    [engine.NumColours]int // player index, -1 bot seat, -2 not in play
	bots    [engine.NumColours]engine.Bot
	self    int // player index; -1 for an observer
	verify  func(peer.ID, []byte, []byte) bool

	// the local chain
	chainEpoch uint32
	chain      [][32]byte
	mySeq      uint64
	myPrev     [32]byte
	restoring  bool
	rec        *recovery // set from Restore until the others' status frames are in

	g    game
	take takeState // newcomers and seat changes (takeseat.go)

	tick     uint64
	lastHave uint64 // tick of our last status frame
	lastNews uint64 // tick the game last moved to a new step
	msgs     []Envelope
	events   []Event
	entries  []Record
	lastWait waitKey
	// toldPaused: EventPaused was emitted and the game is still paused.
	toldPaused bool
	cheatSeen  map[string]bool
}

var errObserver = errors.New("an observer node has no player to act for")

// NewNode starts a game from its Setup. Nothing is sent until the first Ready.
func NewNode(cfg Config) (*Node, error) {
	n, err := newNode(cfg)
	if err != nil {
		return nil, err
	}
	n.entries = append(n.entries, Record{Type: RecordSetup, Data: cfg.Setup.Encode()})
	if n.self >= 0 {
		if err := n.sendConfirm(); err != nil {
			return nil, err
		}
	}
	n.progress()
	return n, nil
}

func newNode(cfg Config) (*Node, error) {
	if err := cfg.Setup.validate(cfg.verify == nil); err != nil {
		return nil, err
	}
	if cfg.ChainLen == 0 {
		cfg.ChainLen = DefaultChainLen
	}
	if cfg.ChainLen < 8 || cfg.ChainLen > 1<<16 {
		return nil, fmt.Errorf("chain length %d: want 8 to 65536", cfg.ChainLen)
	}
	if cfg.ResendTicks <= 0 {
		cfg.ResendTicks = 3
	}
	if cfg.AbsentTicks == 0 {
		cfg.AbsentTicks = DefaultAbsentTicks
	}
	if cfg.ChooseTicks == 0 {
		cfg.ChooseTicks = ChoosePerAbsent * cfg.AbsentTicks
	}
	n := &Node{cfg: cfg, gid: cfg.Setup.GameID(), rules: cfg.Setup.Rules, chainL: uint64(cfg.ChainLen),
		pidx: map[peer.ID]int{}, self: -1, verify: cfg.verify, cheatSeen: map[string]bool{}}
	if n.verify == nil {
		n.verify = newKeyCache().verify
	}
	for c := range n.seat {
		n.seat[c] = -2
	}
	for _, st := range cfg.Setup.Seats {
		kind := st.Bot
		if kind == "" {
			kind = DefaultBot
		}
		b, err := engine.NewBot(kind)
		if err != nil {
			return nil, err
		}
		n.bots[st.Colour] = b
		if st.Player == "" {
			n.seat[st.Colour] = -1
			continue
		}
		n.pidx[st.Player] = len(n.players)
		n.seat[st.Colour] = len(n.players)
		n.players = append(n.players, &player{id: st.Player, colour: st.Colour, future: map[uint64]*message{}})
	}
	if cfg.Self != "" {
		i, ok := n.pidx[cfg.Self]
		if !ok && cfg.Take != nil {
			i = -1 // a newcomer: seated once the players agree
		} else if !ok {
			return nil, fmt.Errorf("%w: the local peer %s holds no seat", ErrBadSetup, cfg.Self)
		}
		if cfg.Key == nil {
			return nil, fmt.Errorf("config: a player needs its private key")
		}
		if cfg.verify == nil && !cfg.Self.MatchesPrivateKey(cfg.Key) {
			return nil, fmt.Errorf("config: the private key does not belong to %s", cfg.Self)
		}
		n.self = i
		n.chain = buildChain(n.gid, cfg.Self, 0, cfg.Entropy, cfg.ChainLen)
	}
	n.g.init(n)
	if err := n.initTake(); err != nil {
		return nil, err
	}
	return n, nil
}

// GameID is the ID of the node's game.
func (n *Node) GameID() GameID { return n.gid }

// HasReady reports whether Ready has anything new.
func (n *Node) HasReady() bool {
	return len(n.msgs) > 0 || len(n.events) > 0 || len(n.entries) > 0
}

// Ready hands out what happened since the last Advance.
func (n *Node) Ready() Ready {
	return Ready{Messages: n.msgs, Events: n.events, LogEntries: n.entries, State: n.state()}
}

// Advance acknowledges a Ready: its entries are written and its messages sent.
func (n *Node) Advance(rd Ready) {
	n.msgs = drop(n.msgs, len(rd.Messages))
	n.events = drop(n.events, len(rd.Events))
	n.entries = drop(n.entries, len(rd.LogEntries))
}

func drop[T any](s []T, k int) []T {
	if k >= len(s) {
		return nil
	}
	return append([]T(nil), s[k:]...)
}

// Step feeds a frame received from peer from (the transport's
// authenticated sender, which may be relaying another player's message).
// Bad frames return an error and change nothing; provable misbehaviour is
// also reported as EventCheating.
func (n *Node) Step(from peer.ID, data []byte) error {
	n.noteFrame(from)
	if i, ok := n.pidx[from]; ok {
		n.players[i].heardAt = n.tick
	}
	if isHave(data) {
		h, err := decodeHave(data)
		if err != nil {
			return err
		}
		if h.game != n.gid {
			return fmt.Errorf("status frame for game %s, not ours (%s)", GameID(h.game), n.gid)
		}
		n.noteRestored(from, h)
		n.forgetLost(from, h)
		n.noteLeaveHeld(from, h)
		n.noteHeldOfMine(from, h)
		n.answerHave(from, h)
		n.noteHave(from, h)
		n.progress()
		return nil
	}
	m, err := decodeMessage(data)
	if err != nil {
		return err
	}
	if err := n.receive(from, m); err != nil {
		return err
	}
	n.checkRecovered()
	n.progress()
	return nil
}

// Tick advances abstract time: re-send status, notice absent players.
func (n *Node) Tick() {
	n.tick++
	if n.self < 0 {
		n.newcomerTick()
		n.progress()
		return
	}
	quiet := n.tick - max(n.lastNews, n.lastHave)
	// A game over with go-on exclusions keeps asking, so the other half
	// of a split hears of it when they meet (alone.go).
	if quiet >= uint64(n.cfg.ResendTicks) && (n.g.phase != PhaseOver || len(n.g.goOns) > 0) {
		n.lastHave = n.tick
		n.sendHave()
	}
	n.checkRecovered()
	n.g.onTick()
	n.progress()
}

// Reachable tells the node whether the driver's connection to player id
// is up. It changes only how long a choice is waited for: a player that
// cannot be reached is voted absent after AbsentTicks instead of
// ChooseTicks. Absence stays a binding majority vote, so a wrong report
// costs time, never agreement.
func (n *Node) Reachable(id peer.ID, up bool) {
	for i, p := range n.players {
		if p.id == id {
			p.unreachable = !up
			// A restored node's first status frame may have left before
			// its connections were up: one to each player that comes up
			// while it recovers asks for its messages and tells that
			// player it restarted (noteRestored).
			if up && n.rec != nil && i != n.self {
				n.send(id, n.have().encode())
			}
		}
	}
}

// Roll is the local player's intent to roll: its link for the roll it is
// to make is revealed as soon as the previous move is applied.
func (n *Node) Roll() error {
	if n.self < 0 {
		return errObserver
	}
	if n.left() {
		return ErrLeft
	}
	if n.paused() {
		return ErrPaused
	}
	n.g.wantRoll = true
	n.progress()
	return nil
}

// Choose plays the local player's move for the current roll; the next link
// is revealed with it, unless the player rolls next without AutoRoll: then
// the move goes out alone and the link waits for Roll.
func (n *Node) Choose(m engine.Move) error {
	if n.self < 0 {
		return errObserver
	}
	if n.left() {
		return ErrLeft
	}
	if n.paused() {
		return ErrPaused
	}
	if err := n.g.choose(m); err != nil {
		return err
	}
	n.progress()
	return nil
}

func (n *Node) emit(e Event) { n.events = append(n.events, e) }

// cheat reports misbehaviour once per culprit, kind and detail.
func (n *Node) cheat(culprit peer.ID, kind Cheat, detail string) {
	key := string(culprit) + "\x00" + kind.String() + "\x00" + detail
	if n.cheatSeen[key] {
		return
	}
	n.cheatSeen[key] = true
	n.emit(Event{Kind: EventCheating, Peer: culprit, Cheat: kind, Detail: detail})
	if p, ok := n.pidx[culprit]; ok {
		n.players[p].cheats++
		n.players[p].brokenChain = n.players[p].brokenChain || kind == CheatBadReveal
	}
}

func (n *Node) send(to peer.ID, data []byte) {
	n.msgs = append(n.msgs, Envelope{To: to, Data: data})
}

// broadcast sends to every other player except skip.
func (n *Node) broadcast(data []byte, skip ...peer.ID) {
	if len(skip) == 0 {
		n.send("", data)
		return
	}
	for i, p := range n.players {
		if i == n.self || contains(skip, p.id) {
			continue
		}
		n.send(p.id, data)
	}
}

func contains(s []peer.ID, id peer.ID) bool {
	for _, x := range s {
		if x == id {
			return true
		}
	}
	return false
}

func (n *Node) state() State {
	g := &n.g
	st := State{Phase: g.phase, Pos: g.pos, Roll: g.k, History: g.hist}
	if g.phase == PhaseMove {
		st.Value = g.roll
		if n.self >= 0 && g.waitingChoice() && n.maySign() {
			outs := g.pos.Outcomes(n.rules, g.roll)
			st.Moves = outs.Slice()
		}
	}
	st.Awaiting = n.ids(g.awaiting())
	if a := g.alone; a != nil && a.step == g.step() && (g.phase == PhaseReveal || g.phase == PhaseMove) && !n.left() {
		st.Missing = g.idsOf(a.xs)
	}
	st.SoloDice = g.soloDice()
	st.Paused = g.gamePaused()
	for _, p := range n.players {
		if p.absent {
			st.Absent = append(st.Absent, p.id)
		}
	}
	return st
}

// Stats counts what the node did with frames; tests use it to show that
// nothing is applied twice.
type Stats struct {
	Accepted, Duplicates, Buffered, Rejected int
}

// Stats returns the counters.
func (n *Node) Stats() Stats { return n.g.stats }

func equalRaw(a, b *message) bool { return bytes.Equal(a.raw, b.raw) }

// ids lists the players of a bit mask in seat order.
func (n *Node) ids(mask uint8) []peer.ID {
	var ids []peer.ID
	for i, p := range n.players {
		if mask&(1<<i) != 0 {
			ids = append(ids, p.id)
		}
	}
	return ids
}
