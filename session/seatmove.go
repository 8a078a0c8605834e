package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/web/client"

	"github.com/libp2p/go-libp2p/core/peer"
)

// A web player's seat is hosted by one program (SetSeatHosts): the others
// take its frames from that program only. When that program is gone for
// good, the browser opens the page of another program of the table and
// moves its seat there with a statement signed by the seat's own key
// (client.SeatMove). The new host checks it and tells every program of
// the table (p2p.KindSeatMove); each checks it again against the seat's
// peer ID, takes it only with a counter above the last it took for the
// seat, and from then on routes the seat through its new host: its
// frames are taken from that program only, its reach is that program's,
// and the host relays it (Hub.AddSeat, GameConfig.Relay). No program
// can move a seat it does not hold the key of; one that speaks for a
// seat without a statement is refused and struck as before (route).

// seatMoves is a game's record of the statements it took.
type seatMoves struct {
	game    lockstep.GameID
	players []peer.ID
	last    map[peer.ID]uint64 // the counter taken per seat
	stmts   map[peer.ID][]byte // the statement taken per seat, to tell again
	buckets map[peer.ID]*p2p.Bucket
	// moved is told every move taken, with the seat's host before it.
	moved func(m client.SeatMove, prev peer.ID)
}

// A program's seat moves: a burst of moveBurst, then one per moveEvery
// (a browser moves when its host is gone: rarely). maxMoveSenders bounds
// the programs a bucket is kept for (the table's members).
const (
	moveBurst      = 4
	moveEvery      = 2 * time.Second
	maxMoveSenders = 32
)

// Why a seat move is refused. errMoveForged is a program's fault (it is
// struck); the others may come from an honest program that saw an older
// state of the table.
var (
	errSeatMove      = errors.New("seat move refused")
	errMoveForged    = fmt.Errorf("%w: not signed by the seat", errSeatMove)
	errMoveGame      = fmt.Errorf("%w: for another game", errSeatMove)
	errMoveStale     = fmt.Errorf("%w: older than the seat's last", errSeatMove)
	errMoveSeat      = fmt.Errorf("%w: not a web player's seat of this game", errSeatMove)
	errMoveHost      = fmt.Errorf("%w: the new host is no program of this table", errSeatMove)
	errMoveFast      = fmt.Errorf("%w: too many from one program", errSeatMove)
	errMoveNoGame    = fmt.Errorf("%w: this program takes no seat moves", errSeatMove)
	errMoveElsewhere = fmt.Errorf("%w: it names another program", errSeatMove)
	// errMoveSame is a statement already taken, told again: no change,
	// no fault (every program tells its statements to one that comes up).
	errMoveSame = fmt.Errorf("%w: already taken", errSeatMove)
)

// takeMoves makes the link take seat moves of setup's game; moved is
// told each one taken (on the goroutine that took it).
func (l *TransportLink) takeMoves(setup lockstep.Setup, moved func(client.SeatMove, peer.ID)) {
	l.moves = &seatMoves{game: setup.GameID(), players: setup.Players(), last: map[peer.ID]uint64{},
		stmts: map[peer.ID][]byte{}, buckets: map[peer.ID]*p2p.Bucket{}, moved: moved}
}

// moveSeat checks a statement from program from ("" for this program's
// own: a browser here, or the game's saved file) and takes it.
func (l *TransportLink) moveSeat(stmt []byte, from peer.ID) (client.SeatMove, error) {
	if l.moves == nil {
		return client.SeatMove{}, errMoveNoGame
	}
	mv := l.moves
	if from != "" && !l.allowMove(from) {
		return client.SeatMove{}, errMoveFast
	}
	m, err := client.ParseSeatMove(stmt)
	if err != nil {
		return m, fmt.Errorf("%w (%v)", errMoveForged, err)
	}
	if m.Game != mv.game {
		return m, errMoveGame
	}
	l.mu.Lock()
	prev, hosted := l.hosts[m.Seat]
	_, hostIsSeat := l.hosts[m.Host]
	switch {
	case !hosted:
		err = errMoveSeat
	case !slices.Contains(mv.players, m.Host) || hostIsSeat:
		err = errMoveHost
	case m.Counter == mv.last[m.Seat] && bytes.Equal(stmt, mv.stmts[m.Seat]):
		err = errMoveSame
	case m.Counter <= mv.last[m.Seat]:
		err = errMoveStale
	}
	if err != nil {
		l.mu.Unlock()
		return m, err
	}
	l.hosts[m.Seat] = m.Host
	l.seats[prev] = slices.DeleteFunc(l.seats[prev], func(id peer.ID) bool { return id == m.Seat })
	l.seats[m.Host] = append(l.seats[m.Host], m.Seat)
	mv.last[m.Seat], mv.stmts[m.Seat] = m.Counter, bytes.Clone(stmt)
	l.mu.Unlock()
	// The seat is reachable while its new host is (advice only: absence
	// is voted from signed messages).
	up := m.Host == l.t.Host().ID() || l.t.Connected(m.Host)
	select {
	case l.reach <- lockstep.Reach{Peer: m.Seat, Up: up, Reason: "seat moved"}:
	default:
	}
	if mv.moved != nil {
		mv.moved(m, prev)
	}
	return m, nil
}

// allowMove takes a token of program from's seat moves.
func (l *TransportLink) allowMove(from peer.ID) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.moves.buckets[from]
	if b == nil {
		if len(l.moves.buckets) >= maxMoveSenders {
			return false
		}
		b = &p2p.Bucket{}
		l.moves.buckets[from] = b
	}
	return b.TakeAt(time.Now(), moveBurst, moveEvery)
}

// receiveMove takes a program's KindSeatMove frame: a forged statement
// strikes its sender; every refusal but a repeat is counted, and logged
// rate-limited per program.
func (l *TransportLink) receiveMove(in p2p.Inbound) {
	m, err := l.moveSeat(in.Data, in.From)
	log := l.t.PeerLog(l.log()) // a few lines per program, then a count
	switch {
	case err == nil:
		log.Info("a web player's seat moved", "move", m.String(), "peer", p2p.ShortID(in.From))
	case errors.Is(err, errMoveSame):
	default:
		l.MovesRefused.Add(1)
		log.Info("a seat move refused", "peer", p2p.ShortID(in.From), "err", err)
		if errors.Is(err, errMoveForged) {
			l.t.Strike(in.From, err.Error())
		}
	}
}

// tellMoves sends every statement taken to program p (it just came up:
// it may have been away when a seat moved, or resumed after a crash).
func (l *TransportLink) tellMoves(p peer.ID) {
	for _, stmt := range l.moveStatements() {
		_ = l.t.Send(p, p2p.KindSeatMove, stmt) // lost: told again when it next comes up
	}
}

// moveStatements are the statements taken, one per seat moved.
func (l *TransportLink) moveStatements() [][]byte {
	if l.moves == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var out [][]byte
	for _, id := range l.moves.players {
		if s := l.moves.stmts[id]; s != nil {
			out = append(out, s)
		}
	}
	return out
}

// seatHosts is a copy of the seat hosts now.
func (l *TransportLink) seatHosts() map[peer.ID]peer.ID {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.hosts)
}

func (l *TransportLink) log() *slog.Logger {
	if l.logger != nil {
		return l.logger
	}
	return slog.New(slog.DiscardHandler)
}

// MoveSeatHere takes a browser's statement moving its seat to this
// program (the browser proved its key on this program's socket: seat is
// its peer ID): checked as any, it is told to every program of the
// table, and this program relays the seat from now on.
func (g *Game) MoveSeatHere(seat peer.ID, stmt []byte) error {
	m, err := client.ParseSeatMove(stmt)
	switch {
	case err != nil:
		return fmt.Errorf("%w (%v)", errMoveForged, err)
	case m.Seat != seat:
		return fmt.Errorf("%w: a statement for seat %s from seat %s", errMoveForged, p2p.ShortID(m.Seat), p2p.ShortID(seat))
	case m.Host != g.link.t.Host().ID():
		return errMoveElsewhere
	case g.hub == nil:
		return errMoveNoGame
	}
	if _, err := g.link.moveSeat(stmt, ""); err != nil && !errors.Is(err, errMoveSame) {
		g.link.MovesRefused.Add(1)
		return err
	}
	return g.link.t.Broadcast(p2p.KindSeatMove, stmt) // lost: told again as each program comes up
}

// seatMoved follows a move taken: a seat moved here is added to the hub
// and relayed, one moved away is let go, and the new seat hosts are
// saved (GameConfig.OnSeatMoved).
func (g *Game) seatMoved(m client.SeatMove, prev peer.ID) {
	self := g.link.t.Host().ID()
	g.mu.Lock()
	switch {
	case g.hub == nil:
	case m.Host == self && g.hub.Link(m.Seat) == nil:
		if l, err := g.hub.AddSeat(m.Seat); err == nil {
			g.hosted = append(g.hosted, m.Seat)
			g.startRelayLocked(m.Seat, l)
		}
	case prev == self && m.Host != self:
		if stop := g.relays[m.Seat]; stop != nil {
			stop()
			delete(g.relays, m.Seat)
		}
		g.hosted = slices.DeleteFunc(g.hosted, func(id peer.ID) bool { return id == m.Seat })
		_ = g.hub.RemoveSeat(m.Seat)
	}
	told := g.onMoved
	g.mu.Unlock()
	if told != nil {
		told(SeatMoved{Seat: m.Seat, From: prev, To: m.Host, Hosts: g.link.seatHosts(), Statements: g.link.moveStatements()})
	}
}

// SeatMoved is a seat move a game took (GameConfig.OnSeatMoved): seat
// From's program hosted it, To's does now (the same for a browser that
// came back to its host); Hosts and Statements are the game's after it.
type SeatMoved struct {
	Seat, From, To peer.ID
	Hosts          map[peer.ID]peer.ID
	Statements     [][]byte
}

// startRelayLocked runs the relay of seat id while the game runs (or
// once it does); g.mu is held.
func (g *Game) startRelayLocked(id peer.ID, l lockstep.Link) {
	if g.run == nil || g.relay == nil {
		return // Run starts it with the others (g.hosted)
	}
	ctx, stop := context.WithCancel(g.run.ctx)
	g.relays[id] = stop
	g.run.wg.Go(func() { g.relay(ctx, id, l) })
}

// gameRun is what a running Game starts a moved seat's relay with.
type gameRun struct {
	ctx context.Context
	wg  *sync.WaitGroup
}
