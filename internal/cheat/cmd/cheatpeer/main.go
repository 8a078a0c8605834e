// Command cheatpeer is a modified aeroplane peer for the end-to-end tests:
// it joins a LAN game and attacks it (package cheat). It is built only by
// the tests and is never part of a release.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"aeroplane/internal/cheat"
	"aeroplane/p2p"
)

func main() {
	var (
		lobby    = flag.String("lobby", "", "game to join")
		name     = flag.String("name", "cheater", "player name")
		identity = flag.String("identity", "", "identity key file")
		attacks  = flag.String("attacks", "", "comma-separated attacks, in order: "+strings.Join(cheat.Attacks, ","))
		think    = flag.Duration("think", 0, "wait before each honest move")
		verbose  = flag.Bool("v", false, "debug log to stderr")
		never    = flag.Bool("never-confirm", false, "sit down, say ready, and never confirm the game")
	)
	flag.Parse()
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	if *lobby == "" || *identity == "" {
		fmt.Fprintln(os.Stderr, "cheatpeer: --lobby and --identity are required")
		os.Exit(2)
	}
	key, err := p2p.LoadOrCreateIdentity(*identity)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var list []string
	if *attacks != "" {
		list = strings.Split(*attacks, ",")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	err = cheat.Run(ctx, cheat.Config{Key: key, Name: *name, Lobby: *lobby, Attacks: list, Think: *think, NeverConfirm: *never, Out: os.Stdout, Logger: logger})
	if err != nil {
		fmt.Fprintln(os.Stderr, "cheatpeer:", err)
		os.Exit(1)
	}
}
