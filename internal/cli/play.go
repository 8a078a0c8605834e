package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"syscall"
	"time"

	"aeroplane/engine"
	"aeroplane/ui"
	"aeroplane/ui/i18n"
)

func init() {
	register(command{
		name:    "play",
		usage:   "[--name NAME] [--lang CODE] [--rules RULES] [--bot-delay DURATION]",
		summary: "play in the terminal (the default command)",
		run:     func(e *env) error { return play(e, runTerminal) },
	})
}

// playEnv is what play reads from the system; tests replace it.
var playEnv = os.Getenv

// playSetup is everything play decided before the interface starts.
type playSetup struct {
	opts     ui.Options
	solo     ui.SoloOptions
	logPath  string
	stateDir string
}

func play(e *env, run func(playSetup) error) error {
	fs := newFlags(e, "play")
	name := fs.String("name", defaultName(), "your name as other players see it")
	lang := fs.String("lang", "", "language of the interface: "+fmt.Sprint(i18n.Languages())+" (default: from LC_ALL, LC_MESSAGES or LANG)")
	rulesText := fs.String("rules", "", "rules of games you create, key=value,… (default "+engine.DefaultRules().String()+")")
	botDelay := fs.Duration("bot-delay", 700*time.Millisecond, "pause before each bot's roll, so that people can follow")
	if _, err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if *botDelay < 0 {
		return usageError("--bot-delay %v: want a pause of 0 or more", *botDelay)
	}
	if *lang != "" && i18n.Messages(*lang) == nil {
		return usageError("--lang %q: no such language (have %v)", *lang, i18n.Languages())
	}
	rules, err := engine.ParseRules(*rulesText)
	if err != nil {
		return usageError("--rules: %v", err)
	}
	dir, err := ui.StateDir(playEnv)
	if err != nil {
		return err
	}
	s := playSetup{
		opts:     ui.Options{Lang: i18n.Choose(*lang, playEnv), Rules: rules, StepDelay: 350 * time.Millisecond},
		solo:     ui.SoloOptions{Name: *name, Seed: uint64(time.Now().UnixNano()), BotDelay: *botDelay, LogDir: filepath.Join(dir, "games")},
		logPath:  filepath.Join(dir, "aeroplane.log"),
		stateDir: dir,
	}
	return run(s)
}

// runTerminal plays on the terminal with logs to a file, never to the screen.
func runTerminal(s playSetup) error {
	if err := os.MkdirAll(s.stateDir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s for the logs (set XDG_STATE_HOME to a writable directory): %w", s.stateDir, err)
	}
	f, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("cannot open the log file (set XDG_STATE_HOME to a writable directory): %w", err)
	}
	defer f.Close()
	s.opts.Logger = slog.New(slog.NewTextHandler(f, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// Until the networked session is plugged in here, play is solo: a
	// person against bots, with no network listener at all.
	sess := ui.NewSolo(s.solo)
	return ui.Run(ctx, sess, s.opts, nil)
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
