package lobby

import (
	"cmp"
	"context"
	"time"

	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Which table to sit at. An mDNS advert is a hint, never an authority:
// anyone on the LAN can send one naming any peer ID, with no host behind
// it. So nothing follows from an advert until a libp2p connection to its
// peer ID (Noise proves the key) has been made and that peer has answered
// Query with its table: only such proven tables are joined.
//
// Tables of one name are ranked by the seats taken (players and bots),
// more first, then by the draw each creator made at random when it
// opened its table, higher first, then by the order this peer proved
// them. The ID never counts: a stranger cannot win the table by choosing
// its key.
//
// A creator with guests never moves: a squatter, real or not, cannot pull
// a table away, and can at most add a second table beside it (listed as
// its own). A creator still alone, that was not told to Create, gathers:
// once it has hosted for gatherAfter it moves to a proven table of its
// name that outranks its own. This is how peers started at once with one
// name, which all create their tables after FindFor, end at one table:
// gatherAfter gives each time to prove every other creator's table (mDNS
// shows an advert within about 400 ms, a proof takes one round trip), and
// all of them rank those tables alike (seats, then draws that every
// table's Query answer states), so every lone creator moves to the same
// best one, which, outranked by none, stays. Once that table has a guest
// it outranks every lone one, so late gatherers and searching joiners go
// there too. A creator that moved to a table just as that one moved on is
// not seated; it re-proves its host after two seconds, finds it no longer
// hosts, and looks again.
const (
	gatherAfter = 1500 * time.Millisecond
	probeEvery  = 1500 * time.Millisecond // re-asks of one peer
	maxProbes   = 4                       // probes running at once
	maxTables   = 64                      // proven tables kept
	maxAsked    = 256                     // peers whose last probe time is kept
	settleFor   = 3 * time.Second         // the longest a joiner waits for the other hosts' answers
)

type provenTable struct {
	info  Info
	order int // this peer's proof order
}

type probeResult struct {
	id   peer.ID
	info Info
	err  error
}

type finder struct {
	tables  map[peer.ID]provenTable
	asked   map[peer.ID]time.Time
	settled map[peer.ID]bool // a probe of it has ended (answered or not)
	firstAt time.Time        // when the first table was proven
	busy    int
	seq     int
	results chan probeResult
	ctx     context.Context
	stop    context.CancelFunc
}

func (f *finder) init() {
	f.tables, f.asked, f.settled = map[peer.ID]provenTable{}, map[peer.ID]time.Time{}, map[peer.ID]bool{}
	f.results = make(chan probeResult, maxProbes)
	f.ctx, f.stop = context.WithCancel(context.Background())
}

// probe connects to id and asks for its table, in the background, unless
// id was asked within probeEvery or maxProbes are running.
func (f *finder) probe(t *p2p.Transport, id peer.ID) {
	now := time.Now()
	if f.busy >= maxProbes || now.Sub(f.asked[id]) < probeEvery {
		return
	}
	if len(f.asked) >= maxAsked {
		for p, at := range f.asked {
			if now.Sub(at) >= probeEvery {
				delete(f.asked, p)
				delete(f.settled, p)
			}
		}
		if len(f.asked) >= maxAsked {
			return
		}
	}
	f.busy++
	f.asked[id] = now
	go func() {
		ctx, cancel := context.WithTimeout(f.ctx, 3*time.Second)
		defer cancel()
		r := probeResult{id: id}
		if !t.Connected(id) {
			r.err = t.Connect(ctx, peer.AddrInfo{ID: id})
		}
		if r.err == nil {
			r.info, r.err = Query(ctx, t.Host(), id)
		}
		select {
		case f.results <- r:
		case <-f.ctx.Done():
		}
	}()
}

// record takes a probe's answer: a table of lobby is proven (or its
// answer refreshed); anything else forgets what id said before.
func (f *finder) record(r probeResult, lobby string) {
	f.busy--
	if _, ok := f.asked[r.id]; ok {
		f.settled[r.id] = true
	}
	if r.err != nil || r.info.Lobby != lobby {
		delete(f.tables, r.id)
		return
	}
	pt, ok := f.tables[r.id]
	if !ok {
		if len(f.tables) >= maxTables {
			return
		}
		f.seq++
		pt.order = f.seq
		if f.firstAt.IsZero() {
			f.firstAt = time.Now()
		}
	}
	pt.info = r.info
	f.tables[r.id] = pt
}

func (f *finder) forget(id peer.ID) { delete(f.tables, id) }

func (f *finder) proven(id peer.ID) bool {
	_, ok := f.tables[id]
	return ok
}

// outranks orders tables: more seats taken, then the higher draw, then
// the one proven first.
func outranks(a, b provenTable) bool {
	if c := cmp.Compare(a.info.Taken, b.info.Taken); c != 0 {
		return c > 0
	}
	if a.info.Draw != b.info.Draw {
		return a.info.Draw > b.info.Draw
	}
	return a.order < b.order
}

// best is the proven table with a free seat that outranks the others.
func (f *finder) best(self peer.ID) (peer.ID, provenTable, bool) {
	var id peer.ID
	var top provenTable
	for p, pt := range f.tables {
		if p == self || pt.info.Free <= 0 {
			continue
		}
		if id == "" || outranks(pt, top) {
			id, top = p, pt
		}
	}
	return id, top, id != ""
}

// probeAdverts proves the hosts the adverts name for our lobby, while
// this peer may still choose a table: it looks for one, waits to be
// seated, or hosts a table with nobody else at it.
func (l *runner) probeAdverts() {
	looking := !l.hosting() && !l.inRoster()
	if l.d == nil || !(looking || l.mayGather()) {
		return
	}
	for _, ad := range l.d.Peers() {
		if ad.Host && ad.Lobby == l.cfg.Lobby && ad.ID != l.self {
			l.find.probe(l.t, ad.ID)
		}
	}
}

// chooseHost is the table to join while looking for one. It waits until
// every host advertised for our lobby has been asked once, for at most
// settleFor after the first proof: a table proven a moment earlier than
// another is no better (a joiner that took the first answer sat at a
// squatter's table of one beside the honest table of two).
func (l *runner) chooseHost() (peer.ID, bool) {
	id, _, ok := l.find.best(l.self)
	if !ok {
		return "", false
	}
	if l.d != nil && time.Since(l.find.firstAt) < settleFor {
		for _, ad := range l.d.Peers() {
			if ad.Host && ad.Lobby == l.cfg.Lobby && ad.ID != l.self && !l.find.settled[ad.ID] {
				return "", false
			}
		}
	}
	return id, true
}

// mayGather: a creator alone at a table it was not told to create.
func (l *runner) mayGather() bool {
	return l.hosting() && !l.cfg.Create && len(l.table.members) == 1
}

// gather moves a lone creator to a proven table that outranks its own.
func (l *runner) gather() {
	if !l.mayGather() || time.Since(l.since) < gatherAfter {
		return
	}
	id, top, ok := l.find.best(l.self)
	own := provenTable{info: Info{Taken: l.table.Taken(), Draw: l.draw}, order: 0}
	if !ok || !outranks(top, own) {
		return
	}
	l.log.Info("another table of this name has more seats taken or the higher draw; moving there", "host", p2p.ShortID(id))
	l.moveTo(id)
}

// moveTo drops this peer's own table, view and advert included, and
// joins id's. A view still seating us would read as "in the roster", and
// we would never ask again if our join crossed the other's own move.
func (l *runner) moveTo(id peer.ID) {
	l.table, l.addrs, l.roster, l.view = nil, nil, nil, View{}
	l.join(id)
	l.advertise() // no longer a host
}

// hostGone reports that the host we try to join has shown it no longer
// hosts our lobby (a probe since found no table there), or never did.
// Peers dialled by hand are never given up on: the user vouched for them.
func (l *runner) hostGone() bool {
	for _, i := range l.cfg.Connect {
		if i.ID == l.host {
			return false
		}
	}
	if !l.find.proven(l.host) {
		return true
	}
	l.find.probe(l.t, l.host) // still there? the next round knows
	return false
}
