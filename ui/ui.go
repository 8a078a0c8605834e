package ui

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"aeroplane/engine"
	"aeroplane/ui/i18n"
)

// Options configure the interface.
type Options struct {
	Lang  string       // catalog language (i18n.Choose picks it from --lang and the environment)
	Rules engine.Rules // rules for a game this player creates
	// StepDelay is how long each step of a move (landing, jump, flight)
	// stays on screen; 0 shows the end of the move at once.
	StepDelay time.Duration
	Logger    *slog.Logger // nil: discard
	// NameSet is told each name the player gives in the lobby once the
	// session took it, so it can be offered next time (RememberName); nil:
	// forgotten.
	NameSet func(name string)
	// Web, if set, serves the page phones at the table open (the
	// browser client): it is told on the interface goroutine, at the
	// first event and whenever that changes, whether the player is at a
	// table (a table being set up, or a game) or back at the list of
	// games, and returns at once with the page's addresses from now on
	// (none: not served), which the lobby and the table show with a QR
	// code. An error is shown as a notice.
	Web func(atTable bool) ([]string, error)
}

type mode uint8

const (
	modeLobby mode = iota
	modeTable
	modeGame
)

type inputMode uint8

const (
	inputNone inputMode = iota
	inputChat
	inputName
	inputAddr
	inputPerson
	inputSeat // the number of a running game to take a seat in (SeatTaker)
)

type overlay uint8

const (
	overlayNone overlay = iota
	overlayHelp
	overlayRules
	overlayStats
	overlayEnd
	overlayPhone // the phone page's QR code and address (phone.go)
)

// UI is the state of the interface: what the session has said so far and
// what the player is doing. Only the tview goroutine touches it (tests
// call it directly).
type UI struct {
	sess Session
	cat  *i18n.Catalog
	opts Options
	log  *slog.Logger

	mode    mode
	lobby   LobbyUpdate
	table   *TableUpdate
	rules   engine.Rules // for a new game
	seatSel int

	pos      engine.Position
	hasPos   bool
	playing  engine.Rules // the rules of the game on the board
	waiting  *DiceWaiting
	rolled   *Rolled
	lastRoll *Rolled // the last roll, kept on show after its move
	sel      int
	events   []string // event log, tagged text
	chat     []string
	notice   string
	stats    diceStats
	over     *GameOver
	absent   [engine.NumColours]bool
	left     [engine.NumColours]bool // left for good: a bot flies the seat
	back     [engine.NumColours]bool // came back, until the seat's next move
	catching [engine.NumColours]bool // back on the network, catching up (CatchingUp), until its next move
	solo     bool                    // this player's own dice alone make the rolls (SoloDice)
	watch    *Watching               // the game watched, or who watches this player's (Watching)
	resuming bool                    // this resumed program is catching up (Resuming)
	missing  []string                // the players a lone decision is about (nil: none open)
	askAlone bool                    // the lone player's question is open; it takes every key

	flown  map[trackSpot]pathKind // the path of the move just played, shown until the next roll
	frames []boardModel           // steps of a move still to show
	gen    uint64                 // bumps when frames are replaced, so stale timers do nothing

	cd  countdown        // an automatic roll on its way
	now func() time.Time // the clock of countdowns (nil: time.Now; tests set it)

	input   inputMode
	editor  []rune
	overlay overlay
	scroll  int // first line of the overlay shown
	keyRows int // rows the key lines took in the last draw
	sc      scrolling
	turn    turnSignal
	confirm bool // the leave-the-game question is open; it takes every key
	leaving bool // Leave was called: "leaving…" until LeaveDone quits
	// askPause: the pause-for-everyone question is open; pauseSent: this
	// player asked the others to pause (pausegame.go).
	askPause, pauseSent bool

	layout layout // where things were last drawn, for the mouse
	phone  phonePage

	// after runs f later on the interface goroutine (nil: tests step by hand)
	after func(d time.Duration, f func())
	stop  func()
}

// New makes the interface for a session. Run drives it on a terminal;
// tests feed it events and keys directly.
func New(s Session, opts Options) *UI {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &UI{sess: s, cat: i18n.New(opts.Lang), opts: opts, log: lg, rules: opts.Rules, stop: func() {}}
}

func (u *UI) t(key string, args ...any) string { return u.cat.T(key, args...) }

// Apply takes one event from the session.
func (u *UI) Apply(e Event) {
	u.log.Debug("event", "type", fmt.Sprintf("%T", e))
	defer u.syncWeb()
	switch e := e.(type) {
	case PauseAsked, PauseLifted, GamePaused:
		u.applyPause(e)
	case LobbyUpdate:
		u.lobby = e
	case TableUpdate:
		t := e
		u.table = &t
		if e.Started {
			u.mode = modeGame
		} else {
			// A table not started after a finished game is the rematch:
			// the finished board gives way to it.
			if u.mode == modeLobby || (u.mode == modeGame && !u.inGame()) {
				u.mode = modeTable
				u.endGame()
			}
			u.seatSel = min(max(u.seatSel, 0), engine.NumColours-1)
		}
	case GameStarted:
		u.mode, u.pos, u.hasPos, u.playing = modeGame, e.Position, true, e.Rules
		u.stats, u.over, u.waiting, u.rolled, u.lastRoll = diceStats{}, nil, nil, nil, nil
		u.frames, u.flown = nil, nil
		u.stopCountdown()
		u.absent, u.left, u.back = [engine.NumColours]bool{}, [engine.NumColours]bool{}, [engine.NumColours]bool{}
		u.catching = [engine.NumColours]bool{}
		u.missing, u.askAlone, u.solo = nil, false, false
		u.askPause, u.pauseSent = false, false
		if u.watch != nil && u.watch.Lobby == "" {
			u.watch = nil // who watched the last game
		}
		if u.overlay == overlayEnd {
			u.overlay = overlayNone
		}
		u.addEvent(u.t("log.start"))
	case DiceWaiting:
		w := e
		u.waiting, u.rolled = &w, nil
		if e.ToMove != u.cd.colour {
			u.stopCountdown()
		}
		u.turn.saw(e.YouRoll)
	case Rolled:
		r := e
		u.rolled, u.lastRoll, u.sel, u.flown = &r, &r, 0, nil
		u.stopCountdown()
		u.stats.add(e.Roll)
		if !e.YouChoose {
			u.rolled = nil
		} else {
			u.turn.saw(true)
		}
	case Moved:
		u.rolled, u.waiting = nil, nil
		u.stopCountdown()
		if c := e.Result.Move.Colour; c < engine.NumColours {
			u.back[c] = false
			if !u.absent[c] && !u.left[c] {
				u.catching[c] = false // its own move: it has caught up
			}
		}
		u.addEvent(u.describe(&e.Before, e.Result))
		u.pos, u.hasPos = e.After, true
		u.flown = pathOf(e.Result.Move.Colour, e.Result)
		u.showSteps(stepsOf(&e.Before, &e.After, u.playing, e.Result))
	case ChatLine:
		who := clean(e.From, maxName)
		if e.Colour < engine.NumColours {
			who = fmt.Sprintf("[%s::b]%s[-::-]", tagColour[e.Colour], who)
		}
		u.chat = append(u.chat, who+": "+clean(e.Text, maxChat))
		u.chat = tail(u.chat, 200)
	case Presence:
		if e.Colour < engine.NumColours {
			u.absent[e.Colour], u.back[e.Colour] = !e.Present, e.Present
			u.catching[e.Colour] = false
		}
		key := "log.absent"
		if e.Present {
			key = "log.back"
		}
		u.addEvent(u.t(key, clean(e.Name, maxName)))
	case Left:
		c := engine.NoColour
		if e.Colour < engine.NumColours {
			c = e.Colour
			u.left[c] = true
			u.absent[c] = false
		}
		u.addEvent(u.t("log.left", clean(e.Name, maxName), u.colourName(c)))
	case AloneDecision:
		u.missing = nil
		for _, n := range e.Missing {
			u.missing = append(u.missing, clean(n, maxName))
		}
		u.askAlone = len(u.missing) > 0 && u.inGame() && !u.leaving
		if u.askAlone {
			u.addEvent(u.t("log.alone", strings.Join(u.missing, ", ")))
		}
	case SoloDice:
		u.solo = e.On
		key := "log.solo.off"
		if e.On {
			key = "log.solo.on"
		}
		u.addEvent("[yellow]" + u.t(key) + "[-]")
	case CheatDetected:
		u.addEvent("[red::b]" + u.t("log.cheat", clean(e.Name, maxName), clean(e.What.In(u.cat), maxChat)) + "[-::-]")
	case GameOver:
		o := e
		u.over, u.waiting, u.rolled = &o, nil, nil
		u.stopCountdown()
		u.resuming = false
		u.turn.saw(false)
		u.confirm = false // there is no game left to leave
		u.askPause = false
		u.missing, u.askAlone = nil, false
		u.overlay = overlayEnd
		u.input = inputNone
		u.addEvent(u.t("log.over"))
	case GameReopened:
		if u.over != nil {
			u.over = nil
			if u.overlay == overlayEnd {
				u.overlay = overlayNone
			}
			u.addEvent(u.t("log.reopened"))
		}
	case CatchingUp:
		// Told by the connection coming back and by the program's own
		// word that it restarted: one line for both.
		if e.Colour < engine.NumColours && u.inGame() && !u.catching[e.Colour] {
			u.catching[e.Colour] = true
			u.addEvent(u.t("log.catchingup", clean(e.Name, maxName)))
		}
	case Resuming:
		if e.On != u.resuming {
			key := "log.caughtup"
			if e.On {
				key = "log.resuming"
			}
			u.addEvent("[yellow]" + u.t(key) + "[-]")
		}
		u.resuming = e.On
	case LeaveDone:
		if u.leaving {
			u.stop()
		}
	case Notice:
		u.notice = clean(e.Msg.In(u.cat), maxChat)
	case Watching:
		w := e
		u.watch = &w
	case RollCountdown:
		u.startCountdown(e)
	case Resync:
		u.pos, u.hasPos = e.Position, true
		u.rolled, u.waiting, u.frames, u.flown = nil, nil, nil, nil
		u.gen++
		u.addEvent(clean(e.Why.In(u.cat), maxChat))
	}
}

func (u *UI) addEvent(s string) {
	u.events = tail(append(u.events, s), 500)
	u.logAdded(s)
}

func tail(s []string, n int) []string {
	if len(s) > n {
		return append([]string(nil), s[len(s)-n:]...)
	}
	return s
}

// showSteps puts the steps of a move on the board one after the other.
func (u *UI) showSteps(frames []boardModel) {
	u.gen++
	if u.opts.StepDelay <= 0 || u.after == nil || len(frames) <= 1 {
		u.frames = nil
		return
	}
	for i := range frames {
		frames[i].path = u.flown // the way stays drawn while the plane goes along it
	}
	u.frames = frames
	u.scheduleStep(u.gen)
}

func (u *UI) scheduleStep(gen uint64) {
	u.after(u.opts.StepDelay, func() {
		if gen != u.gen || len(u.frames) == 0 {
			return
		}
		u.frames = u.frames[1:]
		if len(u.frames) > 1 {
			u.scheduleStep(gen)
		} else {
			u.frames = nil
		}
	})
}

// shown is what the board shows now: a step of a move, or the position
// with the selected move's path (before it is played) or the path of the
// move just played.
func (u *UI) shown() boardModel {
	if len(u.frames) > 0 {
		return u.frames[0]
	}
	m := modelOf(&u.pos, u.playing)
	m.path = u.flown
	if mv, ok := u.selectedMove(); ok {
		if _, res, err := u.pos.Play(u.playing, u.rolled.Roll, mv); err == nil {
			m.path = pathOf(mv.Colour, res)
		}
	}
	return m
}

func (u *UI) selectedMove() (engine.Move, bool) {
	if u.rolled == nil || !u.rolled.YouChoose || u.sel < 0 || u.sel >= len(u.rolled.Moves) {
		return engine.Move{}, false
	}
	return u.rolled.Moves[u.sel], true
}

// do runs a session command and shows its error, if any, as a notice.
func (u *UI) do(what string, f func() error) {
	u.notice = ""
	if err := f(); err != nil {
		u.log.Info("command refused", "command", what, "err", err)
		u.notice = clean(ErrorMsg(err).In(u.cat), maxChat)
	}
}

func (u *UI) choose(i int) {
	if u.rolled == nil || !u.rolled.YouChoose || i < 0 || i >= len(u.rolled.Moves) {
		return
	}
	m := u.rolled.Moves[i]
	u.do("choose", func() error { return u.sess.Choose(m) })
}

// chooseAt plays the move of the plane under a board spot, if any.
func (u *UI) chooseAt(s trackSpot, hangarCell cell) {
	if u.rolled == nil || !u.rolled.YouChoose {
		return
	}
	c := u.rolled.Colour
	for i, mv := range u.rolled.Moves {
		if mv.Kind != engine.PlaneMove {
			continue
		}
		at := u.pos.Plane(c, int(mv.Plane))
		if at == engine.Hangar {
			for j := 0; j < engine.PlanesPerColour; j++ {
				if board.hangar[c][j] == hangarCell && u.pos.Plane(c, j) == engine.Hangar {
					u.choose(i)
					return
				}
			}
			continue
		}
		if sp, ok := board.placeSpot(c, at); ok && sp == s {
			u.choose(i)
			return
		}
	}
}
