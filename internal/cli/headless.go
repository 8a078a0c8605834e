package cli

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netsession"
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
)

func init() {
	register(command{
		name:    "headless",
		usage:   "--bot KIND --name NAME --lobby LOBBY [--players N] [--bots K] [--rules R] [--identity FILE] [--data DIR] [--connect ADDR] [--think DURATION] [--games N]",
		summary: "play games over the LAN as a bot, without a screen (also: aeroplane --headless ...)",
		run:     runHeadless,
	})
}

type headlessOpts struct {
	bot, name, lobby, rules, identity, data string
	connect                                 multiFlag
	players, bots, games                    int
	think, findFor                          time.Duration
	verbose                                 bool
}

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func runHeadless(e *env) error {
	var o headlessOpts
	fs := newFlags(e, "headless")
	fs.Bool("headless", true, "run without a screen (implied by this command)")
	fs.StringVar(&o.bot, "bot", "random", "bot kind that plays this peer's seat: "+strings.Join(engine.BotKinds(), ", "))
	fs.StringVar(&o.name, "name", "", "player name shown to the others (default: the host name)")
	fs.StringVar(&o.lobby, "lobby", "", "game to join, or to create if nobody hosts it (required)")
	fs.IntVar(&o.players, "players", 2, "creator only: peers the game waits for")
	fs.IntVar(&o.bots, "bots", 0, "creator only: extra seats flown by bots (players+bots <= 4)")
	fs.StringVar(&o.rules, "rules", "", "creator only: rule options (see RULES.md; default: the standard rules)")
	fs.StringVar(&o.identity, "identity", "", "identity key file (default: the user's config dir)")
	fs.StringVar(&o.data, "data", ".", "`DIR` for the game logs, created if its parent exists (checked before any network)")
	fs.Var(&o.connect, "connect", "peer address to dial when multicast is blocked: a multiaddr or HOST:PORT (repeatable)")
	fs.DurationVar(&o.think, "think", 0, "wait this long before each of this peer's moves")
	fs.DurationVar(&o.findFor, "find-for", 2*time.Second, "how long to look for the lobby before creating it")
	fs.BoolVar(&o.verbose, "v", false, "also log the network's debug lines to stderr")
	fs.IntVar(&o.games, "games", 1, "play `N` games in a row with the same players, without a restart (give every peer\nthe same N): the first from the lobby, each next one a rematch every peer derives\nfrom the last game; one progress line per game on stderr")
	pos, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("unexpected argument %q", pos[0])
	}
	if o.lobby == "" || p2p.CleanName(o.lobby) == "" {
		return usageError("--lobby names the game to join or create")
	}
	if o.games < 1 {
		return usageError("--games %d: want 1 or more", o.games)
	}
	if o.players < 1 || o.bots < 0 || o.players+o.bots < 2 || o.players+o.bots > engine.NumColours {
		return usageError("--players %d and --bots %d: want 2 to 4 seats in all, at least one player", o.players, o.bots)
	}
	bot, err := engine.NewBot(o.bot)
	if err != nil {
		return usageError("--bot: %v", err)
	}
	rules := engine.DefaultRules()
	if o.rules != "" {
		if rules, err = engine.ParseRules(o.rules); err != nil {
			return usageError("--rules: %v", err)
		}
	}
	if o.name == "" {
		o.name, _ = os.Hostname()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return headless(ctx, e, o, bot, rules)
}

// headlessLog writes one line per event to stderr.
type headlessLog struct {
	mu sync.Mutex
	e  *env
	t0 time.Time
}

func (l *headlessLog) printf(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.e.stderr, "%7.3fs "+format+"\n", append([]any{time.Since(l.t0).Seconds()}, a...)...)
}

func headless(ctx context.Context, e *env, o headlessOpts, bot engine.Bot, rules engine.Rules) error {
	out := &headlessLog{e: e, t0: time.Now()}
	level := slog.LevelInfo
	if o.verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	// Before any network: a game must not start that cannot be saved.
	dir, err := openDataDir(o.data)
	if err != nil {
		return err
	}
	idPath := o.identity
	if idPath == "" {
		var err error
		if idPath, err = p2p.DefaultIdentityPath(); err != nil {
			return err
		}
	}
	key, err := p2p.LoadOrCreateIdentity(idPath)
	if err != nil {
		return err
	}
	game := p2p.CleanName(o.lobby)
	h, err := p2p.NewHost(p2p.HostConfig{Identity: key, Logger: logger})
	if err != nil {
		return err
	}
	defer h.Close()
	t := p2p.NewTransport(h, p2p.TransportConfig{Logger: logger})
	defer t.Close()
	out.printf("peer %s name=%q", h.ID(), o.name)
	for _, a := range p2p.DialableAddrs(h) {
		out.printf("address %s", a)
	}
	d, err := p2p.StartDiscovery(h, p2p.Advert{Name: p2p.CleanName(o.name)}, p2p.DiscoveryConfig{Logger: logger})
	if err != nil {
		if len(o.connect) == 0 {
			return err
		}
		out.printf("discovery off: %v", err)
		d = nil
	} else {
		defer d.Close()
	}
	var manual []peer.AddrInfo
	for _, a := range o.connect {
		info, err := p2p.ResolveAddr(ctx, key, a)
		if err != nil {
			return err
		}
		manual = append(manual, info)
	}
	chat := p2p.NewChat(t)
	g, err := resumable(dir, h.ID(), game, time.Now(), out)
	if err != nil {
		return err
	}
	if g != nil && g.over {
		// We crashed after game g.game of a --games run ended: the others
		// went on to the rematch, which we can derive too.
		if g.game >= o.games {
			if err := endRun(dir, game, g.setup.GameID()); err != nil {
				return err
			}
			g = nil
		} else {
			next := rematch(g.setup, g.history)
			out.printf("game %s rematch %d of %d after a restart: %s", next.GameID(), g.game+1, o.games, seatsLine(next))
			if g, err = newGameFiles(dir, h.ID(), game, next, g.game+1, g.setup.GameID()); err != nil {
				return err
			}
		}
	}
	if g != nil {
		// We crashed in the middle of this game: take our seat back. The
		// others re-dial us (we are a member) and lockstep catches us up.
		out.printf("game %s resuming from %s (%d records)", g.setup.GameID(), g.glog.Path(), len(g.recs))
		t.SetMembers(g.setup.Players())
		for _, info := range manual {
			h.Peerstore().AddAddrs(info.ID, info.Addrs, peerstore.PermanentAddrTTL)
		}
	} else {
		res, err := lobby.Run(ctx, t, d, chat, lobby.Config{
			Player: o.name, Lobby: o.lobby, Players: o.players, Bots: o.bots, Rules: rules,
			Connect: manual, FindFor: o.findFor, Logger: logger,
			OnChange: func(v lobby.View) {
				var names []string
				for _, p := range v.Players {
					names = append(names, p.Name)
				}
				out.printf("lobby %q players=%s free=%d", v.Lobby, strings.Join(names, ","), v.Free)
			},
			OnChat: func(l p2p.ChatLine) { out.printf("chat %s: %s", l.From, l.Text) },
		})
		if err != nil {
			return err
		}
		out.printf("game %s starting: %s", res.Setup.GameID(), seatsLine(res.Setup))
		if g, err = newGameFiles(dir, h.ID(), game, res.Setup, 1, lockstep.GameID{}); err != nil {
			return err
		}
		g.pending = res.Pending
	}
	for k := g.game; ; k++ {
		history, err := playHeadlessGame(ctx, e, o, out, t, chat, key, bot, g, logger)
		if err != nil {
			return err
		}
		progress(out, k, o.games)
		if g.prev != (lockstep.GameID{}) {
			// This game has records, so a restart finds it before the one
			// it followed: that one need not be read again.
			if err := dir.MarkClosed(g.prev, "over"); err != nil {
				out.printf("warning: %v", err)
			}
		}
		if k >= o.games {
			// The run is over: a restart with this lobby name starts a new
			// game. Until then the finished game is left open, so a peer
			// that dies between two games goes on to the rematch.
			return endRun(dir, game, g.setup.GameID())
		}
		next := rematch(g.setup, history)
		out.printf("game %s rematch %d of %d: %s", next.GameID(), k+1, o.games, seatsLine(next))
		if g, err = newGameFiles(dir, h.ID(), game, next, k+1, g.setup.GameID()); err != nil {
			return err
		}
	}
}

// rematch is the next game of a --games run: the same seats and rules, and
// a nonce every peer derives from the game just played and the history
// all of them agreed on, so the rematch needs no lobby round (which could
// race: four peers leaving a game at once each looking for a host). A peer
// that saw a different history derives another game ID, and its peers
// never hear from it: the others show it absent and bots fly its seat.
func rematch(prev lockstep.Setup, history [32]byte) lockstep.Setup {
	gid := prev.GameID()
	h := sha256.New()
	h.Write([]byte("aeroplane/headless/rematch/v1\n"))
	h.Write(gid[:])
	h.Write(history[:])
	next := prev
	next.Seats = append([]lockstep.Seat(nil), prev.Seats...)
	copy(next.Nonce[:], h.Sum(nil))
	return next
}

// progress is one stderr line per game with what a soak watches for
// leaks: goroutines, live heap after a collection, and resident memory.
func progress(out *headlessLog, k, n int) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss := "?"
	if kb, ok := residentKiB(); ok {
		rss = fmt.Sprintf("%.1fMiB", float64(kb)/1024)
	}
	out.printf("progress game=%d/%d goroutines=%d heap=%.1fMiB rss=%s", k, n, runtime.NumGoroutine(), float64(ms.HeapAlloc)/(1<<20), rss)
}

// residentKiB is VmRSS from /proc/self/status (Linux only).
func residentKiB() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			if _, err := fmt.Sscan(rest, &kb); err == nil {
				return kb, true
			}
		}
	}
	return 0, false
}

// playHeadlessGame plays g to its end and prints its result line; it
// returns the agreed history hash.
func playHeadlessGame(ctx context.Context, e *env, o headlessOpts, out *headlessLog, t *p2p.Transport, chat *p2p.Chat,
	key crypto.PrivKey, bot engine.Bot, g *gameFiles, logger *slog.Logger) ([32]byte, error) {
	defer g.glog.Close()
	logPath := g.glog.Path()

	var (
		sess       *netsession.Game
		lastChosen = int64(-1)
		ranking    []engine.Colour
		history    [32]byte
		halted     string
		err        error
	)
	sess, err = netsession.NewGame(t, netsession.GameConfig{
		Setup: g.setup, Key: key, Entropy: g.entropy, Log: g.glog, Records: g.recs,
		Pending: g.pending, Chat: chat, Logger: logger, GoOnAlone: true, // nobody watches: never held hostage
		OnChat: func(l p2p.ChatLine) { out.printf("chat %s: %s", l.From, l.Text) },
		OnReady: func(rd lockstep.Ready) {
			for _, ev := range rd.Events {
				out.printf("event %s", ev)
				switch ev.Kind {
				case lockstep.EventGameOver:
					ranking, history = ev.Ranking, ev.History
				case lockstep.EventHalted:
					halted = ev.Detail
				}
			}
			st := rd.State
			if st.Phase != lockstep.PhaseMove || len(st.Moves) == 0 || int64(st.Roll) == lastChosen {
				return
			}
			lastChosen = int64(st.Roll)
			m := chooseMove(bot, st, g.setup.Rules)
			choose := func() { _ = sess.Do(func(n *lockstep.Node) error { return n.Choose(m) }) }
			if o.think > 0 {
				time.AfterFunc(o.think, choose)
			} else {
				go choose() // Do blocks if the driver is busy; OnReady runs on it
			}
		},
	})
	if err != nil {
		return history, err
	}
	state, err := sess.Run(ctx)
	if err != nil {
		return history, err
	}
	if state.Phase == lockstep.PhaseHalted || ranking == nil {
		return history, fmt.Errorf("the game was halted: %s (the log %s holds the evidence; aeroplane verify checks it)", halted, logPath)
	}
	var order []byte
	for _, c := range ranking {
		order = append(order, c.Letter())
	}
	fmt.Fprintf(e.stdout, "result %s log=%s hash=%x\n", order, logPath, history)
	return history, nil
}

// gameFiles is a game of a headless run with its files (savegame): its
// log, open, and this player's dice entropy, and where it stands in the
// run (the run pointer numbers the games; which game to resume is
// savegame.Find's).
type gameFiles struct {
	setup   lockstep.Setup
	entropy [32]byte
	glog    *savegame.Log
	recs    []lockstep.Record
	pending []p2p.Inbound
	game    int             // which game of a --games run, from 1
	prev    lockstep.GameID // the game it is the rematch of (zero for game 1)
	// over: the game finished before a restart (glog is nil); history is
	// what it ended on, to derive the rematch.
	over    bool
	history [32]byte
}

// newGameFiles creates the files of game number game of lobby's run; the
// Setup is checked completely before anything is written.
func newGameFiles(dir *savegame.Dir, self peer.ID, lobby string, setup lockstep.Setup, game int, prev lockstep.GameID) (*gameFiles, error) {
	sg, err := dir.Create(setup, self, nil)
	if err != nil {
		return nil, fmt.Errorf("%w (--data %s)", err, dir.Path())
	}
	run := savegame.Run{Game: setup.GameID().String(), Number: game}
	if game > 1 {
		run.Prev = prev.String()
	}
	if err := dir.SetRun(lobby, run); err != nil {
		sg.Log.Close()
		return nil, fmt.Errorf("%w (check --data)", err)
	}
	return &gameFiles{setup: setup, entropy: sg.Entropy, glog: sg.Log, game: game, prev: prev}, nil
}

// endRun closes the last game of lobby's run and its run pointer: a
// restart with this lobby name starts a new game.
func endRun(dir *savegame.Dir, lobby string, last lockstep.GameID) error {
	if err := dir.MarkClosed(last, "over"); err != nil {
		return fmt.Errorf("%w (check --data)", err)
	}
	return dir.EndRun(lobby)
}

// resumable is the game of lobby to go on with after a restart: the one
// savegame.Find finds, numbered by the run pointer, or nil. An unfinished
// game is resumed; a finished one (over set) only counts if the run
// pointer names it, as the run's game or the one before (whose rematch
// logged nothing): then its rematch is due, unless it was the run's last.
// A finished game the pointer does not name is from a run that is over.
func resumable(dir *savegame.Dir, self peer.ID, lobby string, now time.Time, out *headlessLog) (*gameFiles, error) {
	s, skipped := dir.Find(savegame.Query{Self: self, Now: now, Lobby: lobby, Over: true})
	for _, err := range skipped {
		out.printf("warning: %v", err)
	}
	if s == nil {
		return nil, nil
	}
	run, err := dir.Run(lobby)
	if err != nil {
		out.printf("warning: %v (the game found is counted as game 1)", err)
	}
	g := &gameFiles{setup: s.Setup, game: 1, over: s.Over, history: s.History}
	switch id := s.Setup.GameID().String(); {
	case id == run.Game:
		g.game = run.Number
	case id == run.Prev:
		// Its rematch was named but logged nothing, so it sent nothing:
		// it starts afresh from this game, as if we stopped in between.
		g.game = run.Number - 1
	case g.over:
		return nil, nil
	}
	if g.over {
		return g, nil
	}
	sg, err := dir.Resume(s)
	if err != nil {
		return nil, err
	}
	g.glog, g.recs, g.entropy = sg.Log, sg.Records, sg.Entropy
	return g, nil
}

// chooseMove asks the bot for one of the moves lockstep offers.
func chooseMove(bot engine.Bot, st lockstep.State, rules engine.Rules) engine.Move {
	pos := st.Pos
	outs := pos.Outcomes(rules, st.Value)
	var seed [8]byte
	_, _ = rand.Read(seed[:])
	s := uint64(0)
	for _, b := range seed {
		s = s<<8 | uint64(b)
	}
	if outs.Len() > 0 {
		m := bot.Choose(&pos, rules, st.Value, &outs, s)
		for _, ok := range st.Moves {
			if ok == m {
				return m
			}
		}
	}
	return st.Moves[0]
}
