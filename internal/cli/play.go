package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"aeroplane/engine"
	"aeroplane/p2p"
	"aeroplane/savegame"
	"aeroplane/session"
	"aeroplane/ui"
	"aeroplane/ui/i18n"
	"github.com/libp2p/go-libp2p/core/crypto"
)

func init() {
	register(command{
		name:    "play",
		usage:   playSynopsis,
		summary: "play in the terminal: the LAN lobby, or --offline against bots (the default command)",
		run:     func(e *env) error { return play(e, runTerminal) },
	})
}

// playSynopsis is play's usage line, in help and after a usage error.
const playSynopsis = "[--offline] [--names LIST | --name NAME] [--connect ADDR]... [--identity FILE] [--data DIR] [--port N] [--no-discovery] [--lang CODE] [--rules RULES] [--bot-delay PAUSE] [--web ADDR | --no-web]"

// playEnv is what play reads from the system; tests replace it.
var playEnv = os.Getenv

// playSetup is everything play decided before the interface starts.
type playSetup struct {
	opts        ui.Options
	name        string
	people      []string // more people at this laptop (hot seat, --names)
	offline     bool
	connect     []string
	identity    string // "" offline without --identity: a fresh key per game
	dataDir     string // the game logs, for `aeroplane verify` and `replay`
	port        int
	noDiscovery bool
	botDelay    time.Duration
	logPath     string // diagnostics, never the screen
	stateDir    string
	web         *webFlags
}

func play(e *env, run func(playSetup) error) error {
	dir, dirErr := ui.StateDir(playEnv)
	defData := filepath.Join(dir, "games")
	if dirErr != nil {
		defData = "none: set XDG_STATE_HOME or HOME"
	}
	fs := newFlags(e, "play")
	var connect multiFlag
	offline := fs.Bool("offline", false, "play on this machine only, against bots and with the people of --names: no network at all")
	name := fs.String("name", defaultName(), "your `NAME` as other players see it (default: the name you gave last time,\nelse your user name)")
	names := fs.String("names", "", "`LIST` of the people playing at this laptop, comma-separated, the first one\nthe owner (hot seat, offline or on the LAN): each has a seat, a key and dice of\ntheir own; at the table + adds one more")
	fs.Var(&connect, "connect", "`ADDR` of a player to reach when discovery cannot (multicast blocked):\nthe address their lobby shows, a multiaddr or HOST:PORT (repeatable)")
	identity := fs.String("identity", "", "identity key `FILE`: the same key is the same player to the others\n(default "+defaultIdentityHint()+", created on first use)")
	data := fs.String("data", "", "`DIR` for the saved game logs (default "+defData+")")
	port := fs.Int("port", 0, "TCP and UDP `PORT` to listen on (default: any free port)")
	noDiscovery := fs.Bool("no-discovery", false, "do not use mDNS: find players only with --connect or the connect key")
	lang := fs.String("lang", "", "`CODE` of the interface language: "+fmt.Sprint(i18n.Languages())+" (default: from LC_ALL, LC_MESSAGES or LANG)")
	rulesText := fs.String("rules", "", "`RULES` of games you create, key=value,… (default "+engine.DefaultRules().String()+")")
	webFl := addWebFlags(fs, true)
	botDelay := new(time.Duration)
	*botDelay = 700 * time.Millisecond
	fs.Var(pauseFlag{botDelay}, "bot-delay", "`PAUSE` before each roll of a seat a bot flies is shown, so that people can follow (e.g. 1s; 0: at once)")
	e.help = func(w io.Writer) {
		fs.SetOutput(w)
		playUsage(w, fs.PrintDefaults, dir, defData)
	}
	pos, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError("unexpected argument %q (flags start with --)", pos[0])
	}
	if *port < 0 || *port > 65535 {
		return usageError("--port %d: want 0 (any) to 65535", *port)
	}
	*lang = strings.ToLower(*lang)
	if *lang != "" && i18n.Messages(*lang) == nil {
		return usageError("--lang %q: no such language (have %v)", *lang, i18n.Languages())
	}
	if p2p.CleanName(*name) == "" {
		return usageError("--name %q: a name needs at least one printable character", *name)
	}
	var people []string
	if *names != "" {
		list := strings.Split(*names, ",")
		for i, n := range list {
			if list[i] = p2p.CleanName(n); list[i] == "" {
				return usageError("--names %q: every name needs a printable character", *names)
			}
		}
		if len(list) > engine.NumColours {
			return usageError("--names: at most %d people at one table", engine.NumColours)
		}
		*name, people = list[0], list[1:]
	}
	if *offline && len(connect) > 0 {
		return usageError("--offline plays without a network: drop --connect")
	}
	if err := webFl.check(*offline); err != nil {
		return err
	}
	rules, err := engine.ParseRules(*rulesText)
	if err != nil {
		return usageError("--rules: %v", err)
	}
	if dirErr != nil {
		if *data == "" {
			return fmt.Errorf("%w, or pass --data DIR (the game keeps its logs there)", dirErr)
		}
		dir = *data // diagnostics next to the games
	}
	s := playSetup{
		opts:        ui.Options{Lang: i18n.Choose(*lang, playEnv), Rules: rules, StepDelay: 350 * time.Millisecond},
		name:        *name,
		people:      people,
		offline:     *offline,
		connect:     connect,
		identity:    *identity,
		dataDir:     *data,
		port:        *port,
		noDiscovery: *noDiscovery,
		botDelay:    *botDelay,
		logPath:     filepath.Join(dir, "aeroplane.log"),
		stateDir:    dir,
		web:         webFl,
	}
	if s.dataDir == "" {
		s.dataDir = defData
	}
	if !flagSet(fs, "name") {
		if n := p2p.CleanName(ui.RememberedName(s.dataDir)); n != "" {
			s.name = n
		}
	}
	if s.identity == "" && !s.offline {
		if s.identity, err = p2p.DefaultIdentityPath(); err != nil {
			return err
		}
	}
	return run(s)
}

// flagSet reports whether the command line gave the flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// playUsage is `aeroplane play -h`: what the command does and where it
// keeps things, before the flags, so the help says where to look.
func playUsage(w io.Writer, flags func(), stateDir, dataDir string) {
	fmt.Fprintf(w, "Usage: aeroplane [play] %s\n\n", playSynopsis)
	fmt.Fprint(w, `Opens the lobby: the games and players found on your local network (mDNS),
your name and your address for manual connect. Create a game (c), give
empty seats to bots or leave them open for friends, and start; or join a
game from the list (1-9). Alone, create a game, give the seats to bots and
start at once. Every roll comes from the fair commit-reveal dice, also
against bots, so every game's log can be checked.

With --offline nothing touches the network: you play against bots, and
with the people of --names at this laptop (hot seat).

Phones at the table: while you are at a table, the program serves the
browser client on your LAN address (the one your lobby shows); the table
shows the page's address, and m shows a QR code to scan. Back at the list
of games it stops. --web ADDR serves it all the time at ADDR, --no-web never.

Where things go:
`)
	fmt.Fprintf(w, "  saved game logs  %s (--data); check one with `aeroplane verify FILE`,\n", dataDir)
	fmt.Fprintf(w, "                   watch it again with `aeroplane replay FILE`\n")
	fmt.Fprintf(w, "  diagnostics      %s (never on the screen; at most 8 MiB, and two older)\n", filepath.Join(stateDir, "aeroplane.log"))
	fmt.Fprintf(w, "  identity key     %s (--identity)\n", defaultIdentityHint())
	fmt.Fprintf(w, "\nIn the game, ? lists every key and q or Ctrl-C leaves.\n\nFlags:\n")
	flags()
}

func defaultIdentityHint() string {
	p, err := p2p.DefaultIdentityPath()
	if err != nil {
		return "none: pass --identity"
	}
	return p
}

// runTerminal plays on the terminal with logs to a file, never to the screen.
func runTerminal(s playSetup) error {
	if err := os.MkdirAll(s.stateDir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s for the logs (set XDG_STATE_HOME to a writable directory): %w", s.stateDir, err)
	}
	f, err := openRotating(s.logPath, logMax, logKeep) // a peer cannot fill the disk through it
	if err != nil {
		return fmt.Errorf("cannot open the log file (set XDG_STATE_HOME to a writable directory): %w", err)
	}
	defer f.Close()
	logger := slog.New(slog.NewTextHandler(f, nil))
	s.opts.Logger = logger
	s.opts.NameSet = func(n string) { // offered next time, unless --name says otherwise
		if err := ui.RememberName(s.dataDir, p2p.CleanName(n)); err != nil {
			logger.Warn("the name is not remembered", "err", err)
		}
	}
	if err := probeTerminal(); err != nil {
		return err
	}
	sess, err := newPlaySession(s, logger)
	if err != nil {
		logger.Error("cannot start", "err", err)
		return err
	}
	logger.Info("play", "offline", s.offline, "data", s.dataDir, "identity", s.identity)
	phones, err := newPhoneServer(s.web, func() string { return sessionLANIP(sess) }, webPlayers(sess), logger)
	if err != nil {
		sess.Close()
		return err
	}
	defer phones.Close()
	s.opts.Web = phones.AtTable
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// Run closes the session, whatever happens.
	if err := ui.Run(ctx, sess, s.opts, nil); err != nil {
		return fmt.Errorf("the interface stopped: %w (play needs a terminal; `aeroplane headless` plays without one)", err)
	}
	return nil
}

// sessionLANIP is the IP the session's network host is reached at on
// the LAN ("" for a session without a network: nothing is served).
func sessionLANIP(sess ui.Session) string {
	if n, ok := sess.(interface{ Addrs() []string }); ok {
		return lanIP(n.Addrs())
	}
	return ""
}

// probeTerminal fails before the network starts when there is no terminal
// to play on (tcell would only find out after the lobby went up). It only
// opens and closes the terminal device; drawing is ui's.
func probeTerminal() error {
	if runtime.GOOS == "windows" {
		return nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("no terminal to play on: %w (run it in a terminal; `aeroplane headless` plays without one)", err)
	}
	return tty.Close()
}

// newPlaySession is the session behind the interface: the real lockstep
// protocol in both cases, so every game leaves a log that verifies.
func newPlaySession(s playSetup, logger *slog.Logger) (ui.Session, error) {
	if err := checkDataDir(s.dataDir); err != nil {
		return nil, err
	}
	if s.offline {
		opts := session.LocalOptions{Name: p2p.CleanName(s.name), People: s.people, DataDir: s.dataDir, BotDelay: s.botDelay, Logger: logger}
		if s.identity != "" {
			key, err := loadIdentity(s.identity)
			if errors.Is(err, savegame.ErrIdentityInUse) {
				return nil, err // it says what to do with --identity already
			}
			if err != nil {
				return nil, fmt.Errorf("%w (pass another --identity FILE, or leave it out to play offline with a fresh key)", err)
			}
			opts.Key = key
		}
		return session.NewLocal(opts)
	}
	key, err := loadIdentity(s.identity)
	if errors.Is(err, savegame.ErrIdentityInUse) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w (pass --identity FILE in a writable place)", err)
	}
	sess, err := session.NewNet(session.NetOptions{
		Name: s.name, DataDir: s.dataDir, Key: key, Port: s.port,
		Connect: s.connect, NoDiscovery: s.noDiscovery, Logger: logger,
		ManualRoll: true, // a person rolls with a key, as at the table
		BotDelay:   s.botDelay,
		People:     s.people, // seated at every table beside this player
	})
	if err != nil {
		hint := "try another --port, --no-discovery with --connect ADDR, or --offline to play alone against bots"
		return nil, fmt.Errorf("cannot open the LAN lobby: %w; %s", err, hint)
	}
	return sess, nil
}

// checkDataDir makes sure game logs can be saved in dir before any network
// starts, rather than after the lobby or at a game's first roll
// (savegame.Open: it creates dir, 0700, but not its parents).
func checkDataDir(dir string) error {
	_, err := openDataDir(dir)
	return err
}

// loadIdentity reads (or makes) the player's key and holds its file's lock
// while the program runs: a second program on the same identity, even
// with another --data, stops here with savegame.ErrIdentityInUse.
func loadIdentity(path string) (crypto.PrivKey, error) {
	key, err := p2p.LoadOrCreateIdentity(path)
	if err != nil {
		return nil, err
	}
	if err := savegame.LockIdentity(path); err != nil {
		return nil, err
	}
	return key, nil
}

func openDataDir(dir string) (*savegame.Dir, error) {
	d, err := savegame.Open(dir)
	if errors.Is(err, savegame.ErrInUse) {
		return nil, err // it says what to do with --data already
	}
	if err != nil {
		return nil, fmt.Errorf("%w; or choose another directory with --data DIR", err)
	}
	return d, nil
}

// defaultName is the system user name, as the issue asks.
func defaultName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if n := playEnv("USER"); n != "" {
		return n
	}
	return "player"
}
