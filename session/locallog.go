package session

import (
	"aeroplane/lockstep"
	"aeroplane/savegame"
	"aeroplane/ui"
)

// localLog is the game log of a local game: if it cannot be written, the
// player is told once and the game goes on without it (nobody else
// could be misled by what it lacks).
type localLog struct {
	l      *savegame.Log
	s      *LocalSession
	tr     *Translator // touched on the driver's goroutine only, as Write is
	failed bool
}

func (g *localLog) Write(recs []lockstep.Record) error {
	if g.failed {
		return nil
	}
	if err := g.l.Write(recs); err != nil {
		g.fail(err)
	}
	return nil
}

func (g *localLog) Sync() error {
	if g.failed {
		return nil
	}
	if err := g.l.Sync(); err != nil {
		g.fail(err)
	}
	return nil
}

func (g *localLog) fail(err error) {
	g.failed = true
	g.s.opts.Logger.Error("game log", "err", err)
	g.s.q.push(ui.Notice{Msg: ui.M("note.nolog", err)})
	g.tr.SetLogPath("")
}
