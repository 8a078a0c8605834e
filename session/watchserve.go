package session

import (
	"context"
	"sort"
	"sync"
	"time"

	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Limits of serving watchers. A player serves at most maxWatchers at
// once (watchers heard within watcherIdle; as many as p2p lets connect), each at most watchBurst
// requests and then one per watchEvery (an honest watcher long-polls: a
// few a second while it catches up, one per p2p.WatchWait after); a
// request past the rate, one that does not parse, or one that claims
// records or chat lines the player never had (a lie) is a strike, and
// maxWatchStrikes within strikeWindow cut the watcher off: its
// connections are closed and its requests refused for refuseFor. At most
// maxWatchPeers watchers and maxRefused refusals are remembered (the
// idle and expired go first), so strangers cannot grow the player's
// memory. A watcher's chat lines (when the table allows them) go at most
// one per sayEvery after a burst of sayBurst, and the player keeps its
// last watchChatKeep lines for its watchers. A watcher that has every
// record waits for news and then watchGather more; one fewer than
// watchCloseBehind records behind is answered no sooner than
// watchGather after its last answer: a few answers a second each,
// whatever the pace of the game.
const (
	maxWatchers      = p2p.MaxWatchers
	watcherIdle      = 10 * time.Second
	watchBurst       = 20
	watchEvery       = 50 * time.Millisecond
	maxWatchStrikes  = 8
	strikeWindow     = 10 * time.Second
	refuseFor        = time.Minute
	maxWatchPeers    = 64
	maxRefused       = 256
	sayBurst         = 3
	sayEvery         = 2 * time.Second
	watchChatKeep    = 64
	maxWatchBytes    = 256 << 10 // of records in one answer, under p2p.MaxWatchAnswer
	watchGather      = 150 * time.Millisecond
	watchCloseBehind = 64              // records: a watcher fewer behind is answered a gather after its last answer
	watchDrain       = 3 * time.Second // how long a paused player waits for its watchers to fetch the pause
)

// watcher is one peer watching this player's game.
type watcher struct {
	id    peer.ID
	name  string
	valid bool // it made a request that parsed: it counts as watching
	seen  time.Time
	has   uint32 // the records it holds: the most it asked from or was sent
	rate  p2p.Bucket
	// answered is when it was last answered (the machine's monotonic
	// clock, as the gather's wait)
	answered time.Time
	say      p2p.Bucket
	strikes  []time.Time
}

// WatchStats counts what a player's watch server did.
type WatchStats struct {
	Answers, Strikes, CutOff, Refused, Full int
	Takes                                   int // newcomers admitted to the game protocol
}

// watchServer serves one game's log (the records this player wrote, in
// its order) and its chat to the peers watching it. It runs on the
// watch streams' goroutines, never on the driver's: the driver's one
// cost is Log.Write appending to a slice under a mutex, so watchers
// never slow the game.
type watchServer struct {
	gid       lockstep.GameID
	allowChat bool
	now       func() time.Time
	gather    time.Duration // how long a woken long poll gathers more
	// cut closes a watcher's connections; onWatcher and onSay tell the
	// player of a new watcher and of a watcher's chat line. Each may be
	// nil and must not block.
	cut       func(peer.ID)
	onWatcher func(id peer.ID, name string)
	onSay     func(id peer.ID, name, text string)
	// onTake admits a newcomer asking for a seat (a take request) to the
	// game protocol; an error refuses it (nil onTake refuses all).
	onTake func(id peer.ID, name string) error

	// The records served are encoded once, in the log file's framing, for
	// every watcher: record i is enc[offs[i]:offs[i+1]]. The watchers'
	// goroutines encode (under encMu, never holding mu while they do), so
	// the driver's only cost stays appending to pending and fresh under mu.
	// Lock order: encMu before mu.
	encMu sync.Mutex
	enc   []byte
	offs  []int // len(offs) = records encoded + 1

	mu       sync.Mutex
	served   int               // records served: durable in the player's log (encoded or fresh)
	fresh    []lockstep.Record // durable, not yet encoded: the last of the served
	pending  []lockstep.Record // written, not yet synced
	wake     chan struct{}     // closed and replaced when records or chat arrive
	closed   bool
	done     chan struct{} // closed by close: no gathering any more
	chat     []watchChat
	chatBase uint32 // the index of chat[0]
	watchers map[peer.ID]*watcher
	refused  map[peer.ID]time.Time // until when
	stats    WatchStats
}

func newWatchServer(gid lockstep.GameID, allowChat bool, past []lockstep.Record) *watchServer {
	return &watchServer{gid: gid, allowChat: allowChat, now: time.Now, gather: watchGather,
		served: len(past), fresh: append([]lockstep.Record(nil), past...), offs: []int{0},
		wake: make(chan struct{}), done: make(chan struct{}), watchers: map[peer.ID]*watcher{}, refused: map[peer.ID]time.Time{}}
}

// encoded returns the encoding of the first n served records and their
// offsets, encoding those served since the last call: each record is
// encoded once, whatever the number of watchers. The slices returned are
// never written again (later records go after them).
func (w *watchServer) encoded(n int) ([]byte, []int) {
	w.encMu.Lock()
	defer w.encMu.Unlock()
	if len(w.offs)-1 < n {
		w.mu.Lock()
		fresh := w.fresh
		w.fresh = nil
		w.mu.Unlock()
		for _, r := range fresh {
			w.enc = append(w.enc, lockstep.EncodeRecords(r)...)
			w.offs = append(w.offs, len(w.enc))
		}
	}
	return w.enc[:w.offs[n]:w.offs[n]], w.offs[: n+1 : n+1]
}

// add takes records the player wrote to its log; they are served once
// they are durable (commit).
func (w *watchServer) add(recs []lockstep.Record) {
	if len(recs) == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range recs {
		w.pending = append(w.pending, lockstep.Record{Type: r.Type, Data: r.Data})
	}
}

// commit serves what was added before the log's last successful sync.
// Only what reached the disk is served: a machine crash can take the
// rest, and the restored node may then sign other messages with the same
// sequence numbers, which a watcher that saw the first ones would take
// for equivocation (the simulation's watchers found it).
func (w *watchServer) commit() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) == 0 {
		return
	}
	w.fresh = append(w.fresh, w.pending...)
	w.served += len(w.pending)
	w.pending = nil
	w.wakeLocked()
}

// said keeps a chat line for the watchers.
func (w *watchServer) said(from, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sayLocked(from, text)
}

func (w *watchServer) sayLocked(from, text string) {
	w.chat = append(w.chat, watchChat{From: from, Text: text})
	if len(w.chat) > watchChatKeep {
		drop := len(w.chat) - watchChatKeep
		w.chat = append([]watchChat(nil), w.chat[drop:]...)
		w.chatBase += uint32(drop)
	}
	w.wakeLocked()
}

// wakeLocked ends the waits of the long polls; once closed, their wake
// stays closed (and nothing waits).
func (w *watchServer) wakeLocked() {
	if w.closed {
		return
	}
	close(w.wake)
	w.wake = make(chan struct{})
}

// close ends the waits of the watchers' long polls (the game is over).
func (w *watchServer) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		close(w.wake)
		close(w.done)
	}
}

// drainPoll is how often drain looks whether the watchers caught up.
const drainPoll = 20 * time.Millisecond

// drain waits until every watcher heard within watcherIdle holds every
// record served (it was sent them, or asked from the end), at most d or
// until ctx ends; it says whether they all did. A player whose program
// stops at once (a game paused together) gives its watchers the records
// that say so; close it first, so that no answer waits to gather more.
func (w *watchServer) drain(ctx context.Context, d time.Duration) bool {
	deadline := time.After(d)
	for {
		if w.caughtUp() {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-deadline:
			return false
		case <-time.After(drainPoll):
		}
	}
}

func (w *watchServer) caughtUp() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	for _, wt := range w.watchers {
		if wt.valid && now.Sub(wt.seen) < watcherIdle && int(wt.has) < w.served {
			return false
		}
	}
	return true
}

// Watchers are the names of the peers watching now, sorted.
func (w *watchServer) Watchers() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	var names []string
	for _, wt := range w.watchers {
		if wt.valid && now.Sub(wt.seen) < watcherIdle {
			names = append(names, wt.name)
		}
	}
	sort.Strings(names)
	return names
}

// Stats returns the counters.
func (w *watchServer) Stats() WatchStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

// answer is the p2p.ServeWatch handler.
func (w *watchServer) answer(ctx context.Context, asker peer.ID, req []byte) []byte {
	if isTakeRequest(req) {
		return w.answerTake(asker, req)
	}
	r, err := decodeWatchRequest(req)
	w.mu.Lock()
	now := w.now()
	if until, ok := w.refused[asker]; ok {
		if now.Before(until) {
			w.stats.Refused++
			w.mu.Unlock()
			return encodeWatchAnswer(watchAnswer{Status: watchRefused})
		}
		delete(w.refused, asker)
	}
	wt := w.watcherLocked(asker, now)
	if wt == nil {
		w.stats.Full++
		w.mu.Unlock()
		return encodeWatchAnswer(watchAnswer{Status: watchFull})
	}
	wt.seen = now
	switch {
	case err != nil:
		return w.strikeLocked(wt, now)
	case !wt.rate.TakeAt(now, watchBurst, watchEvery):
		return w.strikeLocked(wt, now) // a flood
	case r.Game != w.gid:
		w.mu.Unlock()
		return encodeWatchAnswer(watchAnswer{Status: watchNoGame})
	case int(r.From) > w.served || r.ChatFrom > w.chatBase+uint32(len(w.chat)):
		return w.strikeLocked(wt, now) // records it cannot have seen: a lie
	}
	wt.has = max(wt.has, r.From)
	if !wt.valid {
		if w.activeLocked(now) >= maxWatchers {
			w.stats.Full++
			w.mu.Unlock()
			return encodeWatchAnswer(watchAnswer{Status: watchFull})
		}
		wt.valid, wt.name = true, r.Name
		if w.onWatcher != nil {
			w.onWatcher(asker, r.Name)
		}
	}
	if r.Say != "" && w.allowChat && wt.say.TakeAt(now, sayBurst, sayEvery) {
		w.sayLocked(r.Name+" (watching)", r.Say)
		if w.onSay != nil {
			w.onSay(asker, r.Name, r.Say)
		}
	}
	// A watcher that has everything waits for news (a long poll), and
	// then a moment more, so that one answer carries a turn's records,
	// not one each: a watcher costs the player a few answers a second.
	waited := false
	for int(r.From) == w.served && r.ChatFrom >= w.chatBase+uint32(len(w.chat)) && !w.closed {
		wake := w.wake
		w.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
		}
		w.mu.Lock()
		waited = true
		if ctx.Err() != nil {
			break
		}
	}
	gather := time.Duration(0)
	switch {
	case waited:
		gather = w.gather
	case w.served-int(r.From) < watchCloseBehind:
		// News at once, but little of it: a watcher close behind asks
		// again as soon as it is answered, and would get a commit an
		// answer. It waits what is left of a gather since its last
		// answer, so that whatever the pace of commits it costs the
		// player a few answers a second (each a stream, its frames and
		// their system calls on the player's cores).
		gather = w.gather - time.Since(wt.answered)
	}
	if gather > 0 && !w.closed && ctx.Err() == nil {
		w.mu.Unlock()
		select {
		case <-time.After(gather):
		case <-w.done:
		case <-ctx.Done():
		}
		w.mu.Lock()
	}
	wt.answered = time.Now()
	a := watchAnswer{Status: watchOK, Total: uint32(w.served), From: r.From}
	first := max(r.ChatFrom, w.chatBase)
	for i := first - w.chatBase; int(i) < len(w.chat) && len(a.Chat) < maxWatchChat; i++ {
		a.Chat = append(a.Chat, w.chat[i])
	}
	a.ChatNext = first + uint32(len(a.Chat))
	w.stats.Answers++
	w.mu.Unlock()
	enc, offs := w.encoded(int(a.Total))
	from, to := int(r.From), int(r.From)
	for to < int(a.Total) && to-from < watchBatch && (to == from || offs[to+1]-offs[from] <= maxWatchBytes) {
		to++
	}
	w.mu.Lock()
	wt.has = max(wt.has, uint32(to)) // what it holds once this answer is read
	w.mu.Unlock()
	head := encodeWatchAnswer(a)
	return append(append(make([]byte, 0, len(head)+offs[to]-offs[from]), head...), enc[offs[from]:offs[to]]...)
}

// answerTake answers a take request, under a watcher's limits: a flood
// or a request that does not parse is a strike like a watcher's.
func (w *watchServer) answerTake(asker peer.ID, req []byte) []byte {
	r, err := decodeTakeRequest(req)
	w.mu.Lock()
	now := w.now()
	if until, ok := w.refused[asker]; ok && now.Before(until) {
		w.stats.Refused++
		w.mu.Unlock()
		return encodeWatchAnswer(watchAnswer{Status: watchRefused})
	}
	wt := w.watcherLocked(asker, now)
	if wt == nil {
		w.stats.Full++
		w.mu.Unlock()
		return encodeWatchAnswer(watchAnswer{Status: watchFull})
	}
	wt.seen = now
	switch {
	case err != nil, !wt.rate.TakeAt(now, watchBurst, watchEvery):
		return w.strikeLocked(wt, now)
	case r.Game != w.gid || w.closed:
		w.mu.Unlock()
		return encodeWatchAnswer(watchAnswer{Status: watchNoGame})
	}
	onTake := w.onTake
	w.mu.Unlock()
	if onTake == nil || onTake(asker, r.Name) != nil {
		w.mu.Lock()
		w.stats.Full++
		w.mu.Unlock()
		return encodeWatchAnswer(watchAnswer{Status: watchFull})
	}
	w.mu.Lock()
	w.stats.Takes++
	w.mu.Unlock()
	return encodeWatchAnswer(watchAnswer{Status: watchOK})
}

// watcherLocked finds or makes asker's entry; nil when the table of
// watchers is full even after forgetting the idle ones.
func (w *watchServer) watcherLocked(asker peer.ID, now time.Time) *watcher {
	if wt := w.watchers[asker]; wt != nil {
		return wt
	}
	if len(w.watchers) >= maxWatchPeers {
		for id, wt := range w.watchers {
			if now.Sub(wt.seen) >= watcherIdle {
				delete(w.watchers, id)
			}
		}
		if len(w.watchers) >= maxWatchPeers {
			return nil
		}
	}
	wt := &watcher{id: asker, seen: now}
	w.watchers[asker] = wt
	return wt
}

func (w *watchServer) activeLocked(now time.Time) int {
	n := 0
	for _, wt := range w.watchers {
		if wt.valid && now.Sub(wt.seen) < watcherIdle {
			n++
		}
	}
	return n
}

// strikeLocked counts a strike against wt, cuts it off at
// maxWatchStrikes within strikeWindow, and unlocks; the answer is
// nothing (the asker reads a refusal).
func (w *watchServer) strikeLocked(wt *watcher, now time.Time) []byte {
	w.stats.Strikes++
	keep := wt.strikes[:0]
	for _, at := range wt.strikes {
		if now.Sub(at) < strikeWindow {
			keep = append(keep, at)
		}
	}
	wt.strikes = append(keep, now)
	cut := len(wt.strikes) >= maxWatchStrikes
	if cut {
		w.stats.CutOff++
		delete(w.watchers, wt.id)
		if len(w.refused) >= maxRefused {
			for id, until := range w.refused {
				if !now.Before(until) {
					delete(w.refused, id)
				}
			}
		}
		if len(w.refused) < maxRefused {
			w.refused[wt.id] = now.Add(refuseFor)
		}
	}
	w.mu.Unlock()
	if cut && w.cut != nil {
		w.cut(wt.id)
	}
	return nil
}

// watchLog is a game's log that also hands every record written to the
// watch server, which serves it once a Sync has made it durable.
type watchLog struct {
	lockstep.Log
	srv *watchServer
}

func (l watchLog) Write(recs []lockstep.Record) error {
	if err := l.Log.Write(recs); err != nil {
		return err
	}
	l.srv.add(recs)
	return nil
}

func (l watchLog) Sync() error {
	if err := l.Log.Sync(); err != nil {
		return err
	}
	l.srv.commit()
	return nil
}
