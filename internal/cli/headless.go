package cli

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netsession"
	"aeroplane/lockstep"
	"aeroplane/p2p"

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
	if err := checkDataDir(o.data); err != nil {
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
	g, err := resumable(o.data, o.lobby, out)
	if err != nil {
		return err
	}
	if g != nil && g.over {
		// We crashed after game g.game of a --games run ended: the others
		// went on to the rematch, which we can derive too.
		if g.game >= o.games {
			_ = os.Remove(currentFile(o.data, o.lobby))
			g = nil
		} else {
			next := rematch(g.setup, g.history)
			out.printf("game %s rematch %d of %d after a restart: %s", next.GameID(), g.game+1, o.games, seatsLine(next))
			if g, err = newGameFiles(o.data, o.lobby, next, g.game+1, g.setup.GameID(), out); err != nil {
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
		res, err := p2p.RunLobby(ctx, t, d, chat, p2p.LobbyConfig{
			Player: o.name, Lobby: o.lobby, Players: o.players, Bots: o.bots, Rules: rules,
			Connect: manual, FindFor: o.findFor, Logger: logger,
			OnChange: func(v p2p.LobbyView) {
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
		if g, err = newGameFiles(o.data, o.lobby, res.Setup, 1, lockstep.GameID{}, out); err != nil {
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
		if k >= o.games {
			// The run is over: a restart with this lobby name starts a new
			// game. Before that, current-LOBBY names the finished game, so a
			// peer that dies between two games goes on to the rematch.
			_ = os.Remove(currentFile(o.data, o.lobby))
			return nil
		}
		next := rematch(g.setup, history)
		out.printf("game %s rematch %d of %d: %s", next.GameID(), k+1, o.games, seatsLine(next))
		if g, err = newGameFiles(o.data, o.lobby, next, k+1, g.setup.GameID(), out); err != nil {
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
		Pending: g.pending, Chat: chat, Logger: logger,
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

// gameFiles are a game's files under --data: game-ID.log (public, the
// durable log), game-ID.secret (0600: the entropy of our dice chain, which
// Restore needs and nobody else may see) and current-LOBBY (the ID of the
// unfinished game of that lobby and its number in a --games run, so a
// restarted peer resumes it).
type gameFiles struct {
	setup   lockstep.Setup
	entropy [32]byte
	glog    *p2p.GameLog
	recs    []lockstep.Record
	pending []p2p.Inbound
	game    int // which game of a --games run, from 1
	// over: the game in current-LOBBY finished before a restart (glog is
	// nil); history is what it ended on, to derive the rematch.
	over    bool
	history [32]byte
}

func currentFile(dir, lobby string) string {
	return filepath.Join(dir, fmt.Sprintf("current-%x", p2p.CleanName(lobby)))
}

func newGameFiles(dir, lobby string, setup lockstep.Setup, game int, prev lockstep.GameID, out *headlessLog) (*gameFiles, error) {
	g := &gameFiles{setup: setup, game: game}
	if _, err := rand.Read(g.entropy[:]); err != nil {
		return nil, fmt.Errorf("drawing the dice entropy: %w", err)
	}
	gid := setup.GameID().String()
	if err := p2p.WriteFileSync(filepath.Join(dir, "game-"+gid+".secret"), g.entropy[:], 0o600); err != nil {
		return nil, fmt.Errorf("saving the game secret in --data: %w", err)
	}
	glog, recs, err := openGameLog(filepath.Join(dir, "game-"+gid+".log"), out)
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 {
		glog.Close()
		return nil, fmt.Errorf("game log %s already exists with another secret; move it away", glog.Path())
	}
	// Written aside and renamed: a crash leaves the old game or the new
	// one named, never half a name.
	cur := currentFile(dir, lobby)
	line := fmt.Sprintf("%s %d\n", gid, game)
	if game > 1 {
		line = fmt.Sprintf("%s %d %s\n", gid, game, prev)
	}
	err = p2p.WriteFileSync(cur+".new", []byte(line), 0o644)
	if err == nil {
		err = os.Rename(cur+".new", cur)
	}
	if err != nil {
		glog.Close()
		return nil, fmt.Errorf("recording the current game in --data: %w", err)
	}
	g.glog = glog
	return g, nil
}

// resumable returns the unfinished game of lobby in dir, the finished one
// (over set) when the process stopped before the next, or nil.
func resumable(dir, lobby string, out *headlessLog) (*gameFiles, error) {
	b, err := os.ReadFile(currentFile(dir, lobby))
	if err != nil {
		return nil, nil // no current game
	}
	// "ID N" for game N of a --games run, "ID N PREV" for a rematch of
	// game PREV; before --games, "ID".
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return nil, nil
	}
	gid, game, prev := fields[0], 1, ""
	if len(fields) > 1 {
		if n, err := strconv.Atoi(fields[1]); err == nil && n > 0 {
			game = n
		}
	}
	if len(fields) > 2 && game > 1 {
		prev = fields[2]
	}
	g, err := loadGame(dir, lobby, gid, game, out)
	if err == nil && g == nil && prev != "" {
		// The rematch had not logged anything, so it sent nothing: start
		// it afresh from the game before, as if we stopped in between.
		if g, err = loadGame(dir, lobby, prev, game-1, out); g != nil && !g.over {
			g.glog.Close()
			return nil, fmt.Errorf("game %s: the game before it, %s, is not over (remove %s to start a new game)", gid, prev, currentFile(dir, lobby))
		}
	}
	return g, err
}

// loadGame is resumable for game gid, number game of a --games run: nil
// when its log holds no record yet.
func loadGame(dir, lobby, gid string, game int, out *headlessLog) (*gameFiles, error) {
	secret, err := os.ReadFile(filepath.Join(dir, "game-"+gid+".secret"))
	if err != nil || len(secret) != 32 {
		return nil, fmt.Errorf("game %s cannot resume: its secret in %s is missing or damaged (remove %s to start a new game)", gid, dir, currentFile(dir, lobby))
	}
	glog, recs, err := openGameLog(filepath.Join(dir, "game-"+gid+".log"), out)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		glog.Close()
		return nil, nil // crashed before the first record: a new game
	}
	setup, err := lockstep.DecodeSetup(recs[0].Data)
	if err != nil {
		glog.Close()
		return nil, fmt.Errorf("game log %s: %w", glog.Path(), err)
	}
	if v, err := lockstep.VerifyRecords(recs); err == nil && v.Phase == lockstep.PhaseOver {
		glog.Close()
		return &gameFiles{setup: setup, game: game, over: true, history: v.History}, nil
	}
	g := &gameFiles{setup: setup, glog: glog, recs: recs, game: game}
	copy(g.entropy[:], secret)
	return g, nil
}

// openGameLog is p2p.OpenGameLog, saying so when the file was cut inside
// its header (created, then the process died before the header reached
// disk): OpenGameLog rewrites such a file as an empty log, and the game
// starts afresh.
func openGameLog(path string, out *headlessLog) (*p2p.GameLog, []lockstep.Record, error) {
	if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
		var le *lockstep.LogError
		if _, err := lockstep.ParseLog(b); errors.As(err, &le) && le.HeaderTorn() {
			out.printf("warning: game log %s has a torn header (%d bytes, the process died while creating it): rewriting it as an empty log", path, len(b))
		}
	}
	return p2p.OpenGameLog(path)
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
