package ui

import (
	"context"
	"strconv"

	"aeroplane/engine"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// Replay is a game already played, to step through on the terminal with
// the game's own board, event log and dice panel (RunReplay); package
// session makes it from a game log (session.ReplayOf).
type Replay struct {
	Table  TableUpdate // the seats and names, as the game's setup fixed them
	Events []Event     // the game as an observer saw it, in order
}

// replayer shows a Replay as it stood after roll at: the screen is the
// one of a UI that was given the events up to that roll's move, made
// afresh for every step (so stepping back is exact: nothing is undone
// by hand).
type replayer struct {
	r     Replay
	opts  Options
	steps []int // steps[k]: how many events the screen has seen at roll k (steps[0]: the start)
	at    int
	u     *UI

	typing  bool    // the go-to-roll prompt is open
	overlay overlay // the dice statistics or the rules, kept open from roll to roll
	digits  []rune
	stop    func()
}

func newReplayer(r Replay, opts Options) *replayer {
	opts.StepDelay = 0 // a step shows where the move ended; stepping is the animation
	p := &replayer{r: r, opts: opts, stop: func() {}}
	// The screen of roll k ends where roll k+1 begins: it shows roll k's
	// move and what followed it (absences, leaves, cheats) before the next
	// die.
	moves := 0
	for i, e := range r.Events {
		switch e.(type) {
		case Rolled:
			if len(p.steps) == moves {
				p.steps = append(p.steps, i)
			}
		case Moved:
			moves++
		}
	}
	for len(p.steps) <= moves {
		p.steps = append(p.steps, len(r.Events))
	}
	p.show(0)
	return p
}

// rolls is how many rolls the game had.
func (p *replayer) rolls() int { return len(p.steps) - 1 }

// show puts the screen at roll k (clamped to the game).
func (p *replayer) show(k int) {
	k = min(max(k, 0), p.rolls())
	p.at = k
	u := New(replaySession{}, p.opts)
	u.Apply(p.r.Table)
	n := p.steps[k]
	if k == p.rolls() {
		n = len(p.r.Events) // the last roll shows the end too
	}
	for _, e := range p.r.Events[:n] {
		u.Apply(e)
	}
	u.overlay = p.overlay // the end is in the event log; the board stays in view
	p.u = u
}

// HandleKey steps through the game, or opens the go-to-roll prompt, or quits.
func (p *replayer) HandleKey(ev *tcell.EventKey) {
	if p.typing {
		switch {
		case ev.Key() == tcell.KeyEnter:
			if k, err := strconv.Atoi(string(p.digits)); err == nil {
				p.show(k)
			}
			p.typing, p.digits = false, nil
		case ev.Key() == tcell.KeyEscape:
			p.typing, p.digits = false, nil
		case ev.Key() == tcell.KeyBackspace || ev.Key() == tcell.KeyBackspace2:
			if len(p.digits) > 0 {
				p.digits = p.digits[:len(p.digits)-1]
			}
		case ev.Key() == tcell.KeyRune && ev.Rune() >= '0' && ev.Rune() <= '9' && len(p.digits) < 6:
			p.digits = append(p.digits, ev.Rune())
		}
		return
	}
	switch ev.Key() {
	case tcell.KeyRight, tcell.KeyDown:
		p.show(p.at + 1)
	case tcell.KeyLeft, tcell.KeyUp, tcell.KeyBackspace, tcell.KeyBackspace2:
		p.show(p.at - 1)
	case tcell.KeyPgDn:
		p.show(p.at + 10)
	case tcell.KeyPgUp:
		p.show(p.at - 10)
	case tcell.KeyHome:
		p.show(0)
	case tcell.KeyEnd:
		p.show(p.rolls())
	case tcell.KeyEscape:
		if p.overlay != overlayNone {
			p.toggle(p.overlay)
		} else {
			p.stop()
		}
	case tcell.KeyCtrlC:
		p.stop()
	case tcell.KeyRune:
		switch ev.Rune() {
		case ' ', 'n', 'l':
			p.show(p.at + 1)
		case 'p', 'h':
			p.show(p.at - 1)
		case 'g':
			p.typing = true
		case 's':
			p.toggle(overlayStats)
		case 'i':
			p.toggle(overlayRules)
		case 'q':
			p.stop()
		}
	}
}

// toggle opens the dice statistics or the rules over the board, or
// closes them.
func (p *replayer) toggle(o overlay) {
	if p.overlay == o {
		o = overlayNone
	}
	p.overlay, p.u.overlay = o, o
}

// Draw is the game's screen at the current roll, with the replay's own
// line and keys at the bottom in place of the game's.
func (p *replayer) Draw(scr tcell.Screen, w, h int) {
	bar := p.bar(w)
	body := max(h-len(bar), 0)
	p.u.Draw(scr, w, body+p.u.keyRows)
	p.u.Draw(scr, w, body+p.u.keyRows) // keyRows is the last draw's
	for y := body; y < h; y++ {
		for x := 0; x < w; x++ {
			scr.SetContent(x, y, ' ', nil, tcell.StyleDefault)
		}
	}
	for i, l := range bar {
		printLine(scr, 0, body+i, w, l)
	}
}

// bar is the replay's bottom lines: where it is, then its keys.
func (p *replayer) bar(w int) []string {
	t := p.u.t
	where := "[::r]" + t("replay.title", escapeTags(clean(p.r.Table.GameID, maxName)), p.at, p.rolls()) + "[::-]"
	if p.typing {
		where = "[::r]" + t("prompt.roll") + " " + string(p.digits) + "_[::-]"
	}
	key := func(k, help string) string { return "[::b]" + k + "[::-] " + t(help) }
	keys := []string{where, key("→ n", "key.replay.next"), key("← p", "key.replay.prev"),
		key("g", "key.replay.jump"), key("s", "key.stats"), key("q", "key.quit")}
	spare := []string{key("PgUp PgDn", "key.replay.ten"), key("Home End", "key.replay.ends"), key("i", "key.rules")}
	return packLines(keys, spare, w)
}

// replaySession is the session behind a replay: there is nothing to
// command, so every command is refused (the replay's keys never send one).
type replaySession struct{}

var errReplay = Errorf("err.replay")

func (replaySession) Events() <-chan Event                { return nil }
func (replaySession) SetName(string) error                { return errReplay }
func (replaySession) CreateGame(engine.Rules) error       { return errReplay }
func (replaySession) Join(string) error                   { return errReplay }
func (replaySession) Connect(string) error                { return errReplay }
func (replaySession) SetSeat(engine.Colour, string) error { return errReplay }
func (replaySession) Start() error                        { return errReplay }
func (replaySession) Roll() error                         { return errReplay }
func (replaySession) Choose(engine.Move) error            { return errReplay }
func (replaySession) Chat(string) error                   { return errReplay }
func (replaySession) Rematch() error                      { return errReplay }
func (replaySession) Close() error                        { return nil }

// RunReplay shows a replay on the terminal (or on screen, when not nil:
// tests pass a simulation screen) until the player quits or ctx ends,
// and restores the terminal.
func RunReplay(ctx context.Context, r Replay, opts Options, screen tcell.Screen) error {
	tv, _ := newReplayApp(r, opts, screen)
	stop := context.AfterFunc(ctx, tv.Stop)
	defer stop()
	return tv.Run()
}

func newReplayApp(r Replay, opts Options, screen tcell.Screen) (*tview.Application, *replayer) {
	p := newReplayer(r, opts)
	tv := tview.NewApplication()
	if screen != nil {
		tv.SetScreen(screen)
	}
	root := &root{Box: tview.NewBox(), v: p}
	tv.SetRoot(root, true).SetFocus(root)
	tv.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		if ev.Key() == tcell.KeyCtrlC {
			p.HandleKey(ev)
			return nil
		}
		return ev
	})
	p.stop = tv.Stop
	return tv, p
}
