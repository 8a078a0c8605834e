package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
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
	"aeroplane/lobby"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/savegame"
	"aeroplane/session"
	"aeroplane/ui"

	"github.com/libp2p/go-libp2p/core/peer"
)

func init() {
	register(command{
		name:    "headless",
		usage:   "(--lobby LOBBY | --spectate LOBBY | --take-seat LOBBY[:COLOUR]) --bot KIND --name NAME [--players N] [--bots K] [--person NAME]... [--rules R] [--identity FILE] [--data DIR] [--connect ADDR] [--think DURATION] [--games N] [--setup-bot] [--no-watch-chat] [--continue [--continue-wait DURATION]] [--pause-at ROLL] [--web ADDR | --no-web]",
		summary: "play games over the LAN as a bot, without a screen (also: aeroplane --headless ...)",
		run:     runHeadless,
	})
}

type headlessOpts struct {
	bot, name, lobby, rules, identity, data string
	spectate, takeSeat                      string
	noWatchChat, cont                       bool
	connect, people                         multiFlag
	players, bots, games                    int
	pauseAt                                 uint64
	think, findFor, continueWait            time.Duration
	verbose, setupBot                       bool
	web                                     *webFlags
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
	fs.StringVar(&o.spectate, "spectate", "", "watch the running game of this lobby on the LAN, verifying it, and print its result (instead of --lobby)")
	fs.StringVar(&o.takeSeat, "take-seat", "", "ask the players of the running game of this lobby on the LAN for a seat a bot flies\n(the first free in seat order, or LOBBY:COLOUR), fly it with --bot once they agree, and print its result")
	fs.BoolVar(&o.cont, "continue", false, "continue the newest unfinished game of --lobby (or the seat taken in --take-seat's) saved in --data,\nhowever old (the automatic resume after a crash takes only the last hour's)")
	fs.DurationVar(&o.continueWait, "continue-wait", session.DefaultContinueWait, "a game paused together and continued (--continue) waits this long for every other\nplayer of it to continue it too, nobody voted absent meanwhile; then it goes on, bots\nflying the seats of those not back until they are (0: go on at once)")
	fs.Uint64Var(&o.pauseAt, "pause-at", 0, "ask to pause the game for everyone on reaching `ROLL`; once every player paused,\nprint \"paused ROLL log=PATH\" and exit (continue it with --continue)")
	fs.BoolVar(&o.noWatchChat, "no-watch-chat", false, "creator only: the game's watchers may not chat")
	fs.IntVar(&o.players, "players", 2, "creator only: peers the game waits for")
	fs.IntVar(&o.bots, "bots", 0, "creator only: extra seats flown by bots (players+bots <= 4)")
	fs.StringVar(&o.rules, "rules", "", "creator only: rule options (see RULES.md; default: the standard rules)")
	fs.StringVar(&o.identity, "identity", "", "identity key file (default: the user's config dir)")
	fs.StringVar(&o.data, "data", ".", "`DIR` for the game logs, created if its parent exists (checked before any network)")
	fs.Var(&o.people, "person", "one more person playing at this program (hot seat), seated at the table as a player\nof their own (their own key, kept in --data, and dice; their moves made by --bot)\nbeside this peer's own seat (repeatable; --players counts them)")
	fs.Var(&o.connect, "connect", "peer address to dial when multicast is blocked: a multiaddr or HOST:PORT (repeatable)")
	fs.DurationVar(&o.think, "think", 0, "wait this long before each of this peer's moves")
	fs.DurationVar(&o.findFor, "find-for", 2*time.Second, "how long to look for the lobby before creating it")
	o.web = addWebFlags(fs, false)
	fs.BoolVar(&o.verbose, "v", false, "also log the network's debug lines to stderr")
	fs.BoolVar(&o.setupBot, "setup-bot", false, "creator only: if a seated player never confirms the game, start again at once\nwith a bot in its seat (default: everyone goes back to the table and waits)")
	fs.IntVar(&o.games, "games", 1, "play `N` games in a row with the same players, without a restart (give every peer\nthe same N): the first from the lobby, each next one a rematch at the same table,\nwhich its creator reopens; one progress line per game on stderr")
	pos, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("unexpected argument %q", pos[0])
	}
	takeName, _ := splitTakeSeat(o.takeSeat)
	switch {
	case o.spectate != "" && o.lobby != "":
		return usageError("--spectate watches a game, --lobby plays one: give one of them")
	case o.takeSeat != "" && (o.lobby != "" || o.spectate != ""):
		return usageError("--take-seat joins a running game: give it without --lobby and --spectate")
	case o.takeSeat != "":
		if p2p.CleanName(takeName) == "" {
			return usageError("--take-seat names the lobby of the running game to take a seat in")
		}
	case o.spectate != "":
		if p2p.CleanName(o.spectate) == "" {
			return usageError("--spectate names the lobby whose running game to watch")
		}
	case o.lobby == "" || p2p.CleanName(o.lobby) == "":
		return usageError("--lobby names the game to join or create")
	}
	if err := o.web.check(false); err != nil {
		return err
	}
	if len(o.people) > 0 && (o.spectate != "" || o.takeSeat != "") {
		return usageError("--person seats a person at a table: give it with --lobby")
	}
	if len(o.people) >= engine.NumColours {
		return usageError("--person: at most %d people beside this peer's own seat", engine.NumColours-1)
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

// splitTakeSeat reads --take-seat LOBBY[:COLOUR]: a colour by its name
// or letter after the last colon; without one (or if what follows is no
// colour) the whole is the lobby and the seat is the first free one.
func splitTakeSeat(s string) (string, engine.Colour) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, engine.NoColour
	}
	name, col := s[:i], s[i+1:]
	for c := range engine.Colour(engine.NumColours) {
		if strings.EqualFold(col, c.String()) || strings.EqualFold(col, string(c.Letter())) {
			return name, c
		}
	}
	return s, engine.NoColour
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
		if idPath, err = p2p.DefaultIdentityPath(); err != nil {
			return err
		}
	}
	key, err := loadIdentity(idPath)
	if err != nil {
		return err
	}
	for _, a := range o.connect {
		if _, err := p2p.ResolveAddr(ctx, key, a); err != nil {
			return err
		}
	}
	takeName, takeColour := splitTakeSeat(o.takeSeat)
	fe := &frontEnd{e: e, out: out, o: o, bot: bot, dir: dir, lobby: p2p.CleanName(o.lobby), done: make(chan error, 1),
		watching: o.spectate != "", taking: o.takeSeat != ""}
	if fe.taking {
		fe.lobby = p2p.CleanName(takeName)
	}
	opts := session.NetOptions{Name: o.name, DataDir: o.data, Key: key, Connect: o.connect, FindFor: o.findFor,
		Logger: logger, Observer: fe.observer(), NoResume: true, AutoReady: true, NoWatchChat: o.noWatchChat,
		SetupBot: o.setupBot, People: o.people,
		PersonMove:   func(st lockstep.State, rules engine.Rules) engine.Move { return chooseMove(bot, st, rules) },
		GoOnAlone:    true, // nobody watches: a peer gone for good never holds it hostage
		ContinueWait: o.continueWait,
		OwnPace:      true} // nor the bots' pace a table's creator set for people
	if o.continueWait <= 0 {
		opts.ContinueWait = -1 // at once
	}
	s, err := session.NewNet(opts)
	if err != nil && len(o.connect) > 0 {
		out.printf("discovery off: %v", err)
		opts.NoDiscovery = true
		s, err = session.NewNet(opts)
	}
	if err != nil {
		return err
	}
	defer s.Close()
	fe.s = s
	out.printf("peer %s name=%q", s.ID(), o.name)
	for _, a := range s.Addrs() {
		out.printf("address %s", a)
	}
	ws, err := o.web.start(logger, s.ServeWeb)
	if err != nil {
		return err
	}
	if ws != nil {
		defer ws.Close()
		for _, u := range ws.URLs() {
			out.printf("web %s", u)
		}
	}
	if fe.watching {
		if err := s.Watch(o.spectate); err != nil {
			return err
		}
		return fe.wait(ctx)
	}
	if o.cont {
		// A player's game, or a seat this program took as a newcomer
		// (--take-seat LOBBY --continue): both are continued from this
		// program's own log, however old.
		g, err := pausedGame(dir, s.ID(), fe.lobby, out)
		if err != nil {
			return err
		}
		out.printf("game %s continuing after %d rolls, saved %s", g.Setup.GameID(), g.Rolls, g.At.UTC().Format(time.RFC3339))
		if g.Take != nil {
			out.printf("game %s continuing in the seat %s taken, from %s", g.Setup.GameID(), g.Take.Colour, g.Path)
		}
		fe.game = 1
		if run, err := dir.Run(fe.lobby); err == nil && run.Game == g.Setup.GameID().String() {
			fe.game = run.Number // its place in a --games run
		}
		if err := s.Resume(g); err != nil {
			return err
		}
		return fe.wait(ctx)
	}
	if fe.taking {
		fe.game = 1
		// A seat taken before a crash is resumed from its own log, as a
		// player's game is: the players still count on it.
		g, skipped := dir.Find(savegame.Query{Self: s.ID(), Now: time.Now(), Lobby: fe.lobby})
		for _, err := range skipped {
			out.printf("warning: %v", err)
		}
		if g != nil && g.Take != nil {
			out.printf("game %s resumed: the seat %s taken, from %s", g.Setup.GameID(), g.Take.Colour, g.Path)
			if err := s.Resume(g); err != nil {
				return err
			}
			return fe.wait(ctx)
		}
		if err := s.TakeSeat(takeName, takeColour); err != nil {
			return err
		}
		return fe.wait(ctx)
	}
	pl, err := findPlace(dir, s.ID(), fe.lobby, time.Now(), o.games, out)
	if err != nil {
		return err
	}
	fe.game, fe.prev = pl.number, pl.prev
	switch {
	case pl.resume != nil:
		err = s.Resume(pl.resume)
	case pl.rejoin:
		// We stopped after game pl.number-1 of this run: its creator
		// reopens the table, as for everyone.
		out.printf("game %s rematch %d of %d after a restart: looking for table %q", pl.prev, pl.number, o.games, fe.lobby)
		err = s.Enter(lobby.Config{Lobby: o.lobby, FindFor: rejoinFor})
	default:
		err = s.Enter(lobby.Config{Lobby: o.lobby, Players: o.players, Bots: o.bots, Rules: rules, FindFor: o.findFor})
	}
	if err != nil {
		return err
	}
	return fe.wait(ctx)
}

// wait shows the session's events until the run is over.
func (f *frontEnd) wait(ctx context.Context) error {
	s := f.s
	for {
		select {
		case ev, ok := <-s.Events():
			if !ok {
				return errors.New("the session closed")
			}
			f.show(ev)
		case err := <-f.done:
			// What the session queued before the end is shown before
			// the program exits (a watcher's "verified … to the end" was
			// once lost so under load): Close delivers the queue, then
			// closes it.
			_ = s.Close()
			for ev := range s.Events() {
				f.show(ev)
			}
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// pausedGame is the newest game of lobby to continue another day
// (savegame.Dir.Paused), saying why the logs it passed over were refused.
func pausedGame(dir *savegame.Dir, self peer.ID, lobby string, out *headlessLog) (*savegame.Saved, error) {
	games, skipped := dir.Paused(self, lobby)
	for _, err := range skipped {
		out.printf("warning: %v", err)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("--continue: no unfinished game of lobby %q of yours in %s (a game over, left with q, or another player's copied log cannot be continued)", lobby, dir.Path())
	}
	return games[0], nil
}

// rejoinFor is how long a peer restarted between two games of a run looks
// for the rematch's table before it opens one itself.
const rejoinFor = time.Minute

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

// frontEnd is the session's front end without a screen: it prints the
// lines the e2e tests read, answers the choices with the bot, and asks
// for the rematch (the one rule: through the creator's table) until the
// run's games are played.
type frontEnd struct {
	e     *env
	out   *headlessLog
	o     headlessOpts
	bot   engine.Bot
	dir   *savegame.Dir
	lobby string
	s     *session.NetSession
	done  chan error
	// watching: a spectator (--spectate), which plays no seat, keeps no
	// run and prints the result of the one game it watched.
	watching bool
	// taking: a late arrival (--take-seat), which plays the seat it is
	// given in one game and prints its result.
	taking bool

	mu         sync.Mutex
	game       int             // which game of the run, from 1
	prev       lockstep.GameID // the game before it (zero for game 1)
	lastChosen int64
	lastLobby  string // the last lobby line, printed once
	ranking    []engine.Colour
	history    [32]byte
	halted     string
	pauseAsked bool // --pause-at: this peer asked to pause
	// pauseRefused counts the asks refused (the first is said): a
	// newcomer asks again until it holds its seat.
	pauseRefused int
}

func (f *frontEnd) finish(err error) {
	select {
	case f.done <- err:
	default:
	}
}

// show prints what the screen would show of the lobby and the notices
// (chat lines come from the Observer, named by peer ID).
func (f *frontEnd) show(ev ui.Event) {
	switch ev := ev.(type) {
	case ui.TableUpdate:
		if ev.Started {
			return
		}
		var names []string
		free := 0
		for _, st := range ev.Seats {
			switch st.Kind {
			case ui.SeatHuman:
				names = append(names, st.Name)
			case ui.SeatOpen:
				free++
			}
		}
		line := fmt.Sprintf("lobby %q players=%s free=%d", ev.GameID, strings.Join(names, ","), free)
		if line != f.lastLobby {
			f.lastLobby = line
			f.out.printf("%s", line)
		}
	case ui.Notice:
		f.out.printf("notice %s", ev.Msg) // English: headless output is for scripts
	case ui.Watching:
		switch {
		case ev.Lobby != "" && ev.Over:
			f.out.printf("watching %q from %s: verified %d records to the end", ev.Lobby, ev.From, ev.Records)
		case len(ev.Watchers) > 0:
			f.out.printf("watched by %s", strings.Join(ev.Watchers, ","))
		}
	case ui.ChatLine:
		// A player's own chat comes named by peer ID from the Observer;
		// what a watcher sees, and a watcher's lines, come only here.
		if f.watching || ev.Colour == engine.NoColour && strings.HasSuffix(ev.From, " (watching)") {
			f.out.printf("chat %s: %s", ev.From, ev.Text)
		}
	}
}

func (f *frontEnd) observer() session.Observer {
	return session.Observer{Started: f.started, Ready: f.ready, Ended: f.ended,
		Chat: func(l p2p.ChatLine) { f.out.printf("chat %s: %s", l.From, l.Text) }}
}

// started numbers the game in the run pointer before its first frame, so
// a restart finds its place in the run.
func (f *frontEnd) started(g session.GameInfo) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lastChosen, f.ranking, f.halted = -1, nil, ""
	id := g.Setup.GameID()
	if f.watching {
		f.out.printf("game %s watching: %s", id, seatsLine(g.Setup, nil))
		return nil
	}
	switch {
	case f.taking && !g.Resumed:
		f.out.printf("game %s taking a seat: %s", id, seatsLine(g.Setup, nil))
	case g.Resumed:
		f.out.printf("game %s resuming from %s (%d records)", id, g.Log, g.Records)
	case f.game > 1:
		f.out.printf("game %s rematch %d of %d: %s", id, f.game, f.o.games, seatsLine(g.Setup, nil))
	default:
		f.out.printf("game %s starting: %s", id, seatsLine(g.Setup, nil))
	}
	for _, p := range g.People {
		f.out.printf("person %s seat=%s log=%s", p.Name, p.Seat, p.Log)
	}
	run := savegame.Run{Game: id.String(), Number: f.game}
	if f.game > 1 && f.prev != (lockstep.GameID{}) {
		run.Prev = f.prev.String()
	}
	if err := f.dir.SetRun(f.lobby, run); err != nil {
		return fmt.Errorf("%w (check --data)", err)
	}
	return nil
}

// ready prints lockstep's events and answers this peer's choices.
func (f *frontEnd) ready(g session.GameInfo, rd lockstep.Ready) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ev := range rd.Events {
		f.out.printf("event %s", ev)
		switch ev.Kind {
		case lockstep.EventGameOver:
			f.ranking, f.history = ev.Ranking, ev.History
		case lockstep.EventHalted:
			f.halted = ev.Detail
		case lockstep.EventRolledBack:
			f.ranking = nil // an end this peer reached alone was undone
		}
	}
	st := rd.State
	if f.o.pauseAt > 0 && !f.pauseAsked && st.Roll >= f.o.pauseAt && (st.Phase == lockstep.PhaseReveal || st.Phase == lockstep.PhaseMove) {
		f.pauseAsked = true
		f.out.printf("pause asked at roll %d", st.Roll)
		go func() { // PauseTogether waits for the driver, which runs this
			if err := f.s.PauseTogether(); err != nil {
				// Asked again at a later Ready: a newcomer not seated
				// yet (or just seated) may pause once it flies its seat.
				f.mu.Lock()
				f.pauseAsked, f.pauseRefused = false, f.pauseRefused+1
				n := f.pauseRefused
				f.mu.Unlock()
				if n == 1 {
					f.out.printf("pause refused: %v", err)
				}
			}
		}()
	}
	if st.Phase != lockstep.PhaseMove || len(st.Moves) == 0 || int64(st.Roll) == f.lastChosen {
		return
	}
	f.lastChosen = int64(st.Roll)
	m := chooseMove(f.bot, st, g.Setup.Rules)
	choose := func() { _ = f.s.Choose(m) }
	if f.o.think > 0 {
		time.AfterFunc(f.o.think, choose)
	} else {
		go choose() // Choose waits for the driver, which runs this
	}
}

// ended prints the game's result and progress, and asks for the rematch
// while the run has games left.
func (f *frontEnd) ended(g *session.GameInfo, st lockstep.State, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		f.finish(err)
		return
	}
	if st.Paused {
		// Every player paused: the log is kept unfinished (--continue).
		fmt.Fprintf(f.e.stdout, "paused %d log=%s\n", st.Roll, g.Log)
		f.finish(nil)
		return
	}
	if st.Phase == lockstep.PhaseHalted || f.ranking == nil {
		f.finish(fmt.Errorf("the game was halted: %s (the log %s holds the evidence; aeroplane verify checks it)", f.halted, g.Log))
		return
	}
	var order []byte
	for _, c := range f.ranking {
		order = append(order, c.Letter())
	}
	fmt.Fprintf(f.e.stdout, "result %s log=%s hash=%x\n", order, g.Log, f.history)
	if f.watching {
		f.finish(nil)
		return
	}
	progress(f.out, f.game, f.o.games)
	id := g.Setup.GameID()
	if f.game >= f.o.games {
		// The run is over: a restart with this lobby name starts anew.
		f.finish(endRun(f.dir, f.lobby, id))
		return
	}
	f.game, f.prev = f.game+1, id
	if err := f.s.Rematch(); err != nil {
		f.finish(fmt.Errorf("rematch %d of %d: %w", f.game, f.o.games, err))
	}
}

// endRun closes the last game of lobby's run and its run pointer: a
// restart with this lobby name starts a new game.
func endRun(dir *savegame.Dir, lobby string, last lockstep.GameID) error {
	if err := dir.MarkClosed(last, "over"); err != nil {
		return fmt.Errorf("%w (check --data)", err)
	}
	return dir.EndRun(lobby)
}

// place is where a start finds itself in lobby's run.
type place struct {
	resume *savegame.Saved // a game a crash cut short, to take up
	rejoin bool            // between two games: the rematch's table
	number int             // the game's number in the run, from 1
	prev   lockstep.GameID // the game before it
}

// findPlace is where a (re)start goes on in lobby's run: the game a crash
// cut short (savegame.Find), numbered by the run pointer; else, if the run
// pointer names a game finished within savegame.ResumeWithin that was not
// the run's last, the rematch after it; else game 1 from the lobby.
func findPlace(dir *savegame.Dir, self peer.ID, lobby string, now time.Time, games int, out *headlessLog) (place, error) {
	run, err := dir.Run(lobby)
	if err != nil {
		out.printf("warning: %v (the game found is counted as game 1)", err)
	}
	s, skipped := dir.Find(savegame.Query{Self: self, Now: now, Lobby: lobby})
	for _, err := range skipped {
		out.printf("warning: %v", err)
	}
	if s != nil {
		pl := place{resume: s, number: 1}
		if s.Setup.GameID().String() == run.Game {
			pl.number = run.Number
			_, _ = hex.Decode(pl.prev[:], []byte(run.Prev))
		}
		return pl, nil
	}
	if run.Number == 0 {
		return place{number: 1}, nil
	}
	var last lockstep.GameID
	if _, err := hex.Decode(last[:], []byte(run.Game)); err != nil {
		return place{}, fmt.Errorf("run pointer of %q: %w (check --data)", lobby, err)
	}
	fi, err := os.Stat(dir.LogPath(last))
	if run.Number >= games || err != nil || now.Sub(fi.ModTime()) > savegame.ResumeWithin {
		// The run is over (or so old nobody waits for us): a new one.
		if err := endRun(dir, lobby, last); err != nil {
			out.printf("warning: %v", err)
		}
		return place{number: 1}, nil
	}
	return place{rejoin: true, number: run.Number + 1, prev: last}, nil
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
