package cli

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

func init() {
	register(command{
		name:    "headless",
		usage:   "--bot KIND --name NAME --lobby LOBBY [--players N] [--bots K] [--rules R] [--identity FILE] [--data DIR] [--connect ADDR] [--think DURATION]",
		summary: "play one game over the LAN as a bot, without a screen (also: aeroplane --headless ...)",
		run:     runHeadless,
	})
}

type headlessOpts struct {
	bot, name, lobby, rules, identity, data string
	connect                                 multiFlag
	players, bots                           int
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
	fs.StringVar(&o.data, "data", ".", "directory for the game log")
	fs.Var(&o.connect, "connect", "peer address to dial when multicast is blocked: a multiaddr or HOST:PORT (repeatable)")
	fs.DurationVar(&o.think, "think", 0, "wait this long before each of this peer's moves")
	fs.DurationVar(&o.findFor, "find-for", 2*time.Second, "how long to look for the lobby before creating it")
	fs.BoolVar(&o.verbose, "v", false, "also log the network's debug lines to stderr")
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
	if err := os.MkdirAll(o.data, 0o755); err != nil {
		return fmt.Errorf("creating --data %s: %w", o.data, err)
	}
	h, err := p2p.NewHost(p2p.HostConfig{Identity: key})
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
	gid := res.Setup.GameID().String()
	out.printf("game %s starting: %s", gid, seatsLine(res.Setup))

	var ent [32]byte
	if _, err := rand.Read(ent[:]); err != nil {
		return fmt.Errorf("drawing the dice entropy: %w", err)
	}
	// The entropy is the secret of our dice chain: keep it private, next to
	// the log, so a restarted peer could resume (lockstep.Restore).
	if err := os.WriteFile(filepath.Join(o.data, "game-"+gid+".secret"), ent[:], 0o600); err != nil {
		return fmt.Errorf("saving the game secret in --data: %w", err)
	}
	logPath := filepath.Join(o.data, "game-"+gid+".log")
	glog, recs, err := p2p.OpenGameLog(logPath)
	if err != nil {
		return err
	}
	defer glog.Close()

	var (
		sess       *p2p.Session
		lastChosen = int64(-1)
		ranking    []engine.Colour
		history    [32]byte
		halted     string
	)
	sess, err = p2p.NewSession(t, p2p.SessionConfig{
		Setup: res.Setup, Key: key, Entropy: ent, Log: glog, Records: recs,
		Pending: res.Pending, Chat: chat, Logger: logger,
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
			m := chooseMove(bot, st, res.Setup.Rules)
			choose := func() { sess.Do(func(n *lockstep.Node) error { return n.Choose(m) }) }
			if o.think > 0 {
				time.AfterFunc(o.think, choose)
			} else {
				go choose() // Do blocks if the driver is busy; OnReady runs on it
			}
		},
	})
	if err != nil {
		return err
	}
	state, err := sess.Run(ctx)
	if err != nil {
		return err
	}
	if state.Phase == lockstep.PhaseHalted || ranking == nil {
		return fmt.Errorf("the game was halted: %s (the log %s holds the evidence; aeroplane verify checks it)", halted, logPath)
	}
	var order []byte
	for _, c := range ranking {
		order = append(order, c.Letter())
	}
	fmt.Fprintf(e.stdout, "result %s log=%s hash=%x\n", order, logPath, history)
	return nil
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
