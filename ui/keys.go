package ui

import (
	"strconv"
	"strings"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
)

// binding is one entry of the key table. The table is the only place keys
// are defined: dispatch, the help screen and the bottom line all read it,
// so they cannot disagree.
type binding struct {
	keys  []tcell.Key // special keys
	runes string      // printable keys
	label string      // how the help and the bottom line write the key
	help  string      // catalog key of what it does
	when  func(u *UI) bool
	do    func(u *UI, ev *tcell.EventKey)
	// more keeps the key off the crowded bottom line (help lists it)
	more bool
	// spare puts the key on the bottom line only where it fits on the
	// lines the other keys take
	spare bool
	// dialog keys answer the leave question; while it is open they are
	// the only keys
	dialog bool
}

// active is whether the binding does something now.
func (b *binding) active(u *UI) bool { return b.dialog == u.asking() && b.when(u) }

func (b *binding) matches(ev *tcell.EventKey) bool {
	if ev.Key() == tcell.KeyRune {
		return ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0 && strings.ContainsRune(b.runes, ev.Rune())
	}
	for _, k := range b.keys {
		if ev.Key() == k {
			return true
		}
	}
	return false
}

// free is true when no overlay, question or text input takes the keys.
func (u *UI) free() bool { return u.overlay == overlayNone && u.input == inputNone && !u.asking() }

// inGame: a game is being played, so quitting would leave it.
func (u *UI) inGame() bool { return u.mode == modeGame && u.hasPos && u.over == nil }

// quit leaves the interface, but in a running game first asks: one stray
// key must not end a person's game.
func (u *UI) quit() {
	if u.inGame() {
		u.confirm = true
		return
	}
	u.stop()
}

// leave is the confirmed answer: leave the game for good, then quit (Run
// closes the session). Leave returns at once; while the session tells the
// others, the screen says "leaving…" and stays live, and LeaveDone quits.
// A refused Leave is logged and the player quits at once, as they asked:
// the others then see them absent.
func (u *UI) leave() {
	u.confirm = false
	l, ok := u.sess.(Leaver)
	if !ok {
		u.stop()
		return
	}
	if err := l.Leave(); err != nil {
		u.log.Warn("leave refused; quitting anyway", "err", err)
		u.stop()
		return
	}
	u.leaving = true
	u.addEvent(u.t("log.leaving"))
}

// pause quits keeping the game to continue another day: no Leave, so
// the others see this player absent and bots fly its seat meanwhile.
func (u *UI) pause() {
	u.confirm = false
	if p, ok := u.sess.(Pauser); ok {
		if err := p.Pause(); err != nil {
			u.log.Warn("pause refused; quitting anyway", "err", err)
		}
	}
	u.stop()
}

func (u *UI) choosing() bool {
	return u.free() && u.mode == modeGame && u.rolled != nil && u.rolled.YouChoose
}

func (u *UI) canRoll() bool {
	return u.free() && u.mode == modeGame && u.over == nil && u.waiting != nil && u.waiting.YouRoll && u.rolled == nil
}

func (u *UI) hostSetup() bool {
	return u.tableSetup() && u.table.Host
}

// tableSetup: a table being set up takes the seat keys.
func (u *UI) tableSetup() bool {
	return u.free() && u.mode == modeTable && u.table != nil && !u.table.Started
}

// settingRules: the creator of a table being set up may change its rules.
func (u *UI) settingRules() bool {
	_, ok := u.sess.(RulesSetter)
	return ok && u.hostSetup()
}

// The keys that change the rule options, in optionLines order: in the
// lobby (for a game to create) and at the table (its creator).
const (
	lobbyRuleKeys = "tokf"
	tableRuleKeys = "1234"
)

// nextRule is r with rule option i (optionLines order: takeoff,
// overshoot, stack, flyjump) set to its next value.
func nextRule(r engine.Rules, i int) engine.Rules {
	switch i {
	case 0:
		r.Takeoff = (r.Takeoff + 1) % 3
	case 1:
		r.StayOnOvershoot = !r.StayOnOvershoot
	case 2:
		r.NoStacks = !r.NoStacks
	case 3:
		r.FlyJump = !r.FlyJump
	}
	return r
}

// seatChooser is the session when players choose colours and say ready.
func (u *UI) seatChooser() (SeatChooser, bool) {
	sc, ok := u.sess.(SeatChooser)
	return sc, ok
}

// choosingSeat: the cursor moves over the seats for the creator (bots)
// and, where players choose colours, for everyone.
func (u *UI) choosingSeat() bool {
	_, ok := u.seatChooser()
	return u.tableSetup() && (u.table.Host || ok)
}

func (u *UI) canSit() bool {
	_, ok := u.seatChooser()
	return ok && u.tableSetup() && u.mySeat() < engine.NumColours
}

func (u *UI) toggle(o overlay) {
	u.scroll = 0
	if u.overlay == o {
		u.overlay = overlayNone
	} else if u.input == inputNone {
		u.overlay = o
	}
}

func (u *UI) startInput(m inputMode, initial string) {
	u.input, u.editor = m, []rune(initial)
}

func (u *UI) submitInput() {
	text := strings.TrimSpace(string(u.editor))
	m := u.input
	u.input, u.editor = inputNone, nil
	if text == "" {
		return
	}
	switch m {
	case inputChat:
		u.do("chat", func() error { return u.sess.Chat(text) })
	case inputName:
		u.do("name", func() error {
			if err := u.sess.SetName(text); err != nil {
				return err
			}
			if u.opts.NameSet != nil {
				u.opts.NameSet(text)
			}
			return nil
		})
	case inputAddr:
		u.do("connect", func() error { return u.sess.Connect(text) })
	case inputPerson:
		if pa, ok := u.sess.(PersonAdder); ok {
			u.do("person", func() error { return pa.AddPerson(text) })
		}
	case inputSeat:
		u.takeSeat(text)
	}
}

// watchingLive says whether this screen watches a game still played, in
// which a SeatTaker may ask for a seat (j: the first a bot flies).
func (u *UI) watchingLive() bool {
	_, ok := u.sess.(SeatTaker)
	return ok && u.watch != nil && u.watch.Lobby != "" && !u.watch.Over && u.over == nil
}

// seatFree says whether a running game listed has a seat a bot flies
// and the session can ask for it.
func (u *UI) seatFree() bool {
	if _, ok := u.sess.(SeatTaker); !ok {
		return false
	}
	for _, g := range u.lobby.Running {
		if g.Free > 0 {
			return true
		}
	}
	return false
}

// takeSeat asks for a seat in the running game whose number (as the
// lobby lists it) text starts with, then optionally a colour: "2",
// "2 blue", "2 b".
func (u *UI) takeSeat(text string) {
	st, ok := u.sess.(SeatTaker)
	if !ok {
		return
	}
	f := strings.Fields(text)
	k, err := strconv.Atoi(f[0])
	i := k - 1 - len(u.lobby.Games)
	if err != nil || i < 0 || i >= len(u.lobby.Running) || len(f) > 2 {
		u.notice = clean(u.t("err.takenumber", text), maxChat)
		return
	}
	colour := engine.NoColour
	if len(f) == 2 {
		colour = u.colourNamed(f[1])
		if colour == engine.NoColour {
			u.notice = clean(u.t("err.takenumber", text), maxChat)
			return
		}
	}
	name := u.lobby.Running[i].Lobby
	u.do("take seat", func() error { return st.TakeSeat(name, colour) })
}

// colourNamed is the colour a person typed: its name in the screen's
// language or English, or its letter, in any case; NoColour if none.
func (u *UI) colourNamed(s string) engine.Colour {
	for c := range engine.Colour(engine.NumColours) {
		if strings.EqualFold(s, u.colourName(c)) || strings.EqualFold(s, c.String()) || strings.EqualFold(s, string(c.Letter())) {
			return c
		}
	}
	return engine.NoColour
}

// keyTable is every key of the interface, in the order help lists them.
var keyTable = []binding{
	{runes: "?", keys: []tcell.Key{tcell.KeyF1}, label: "?", help: "key.help",
		when: func(u *UI) bool { return u.input == inputNone },
		do:   func(u *UI, _ *tcell.EventKey) { u.toggle(overlayHelp) }},
	{runes: " r", label: "space", help: "key.roll",
		when: (*UI).canRoll,
		do:   func(u *UI, _ *tcell.EventKey) { u.do("roll", u.sess.Roll) }},
	{runes: "123456789", label: "1-4", help: "key.choose",
		when: (*UI).choosing,
		do:   func(u *UI, ev *tcell.EventKey) { u.choose(int(ev.Rune() - '1')) }},
	{keys: []tcell.Key{tcell.KeyTab, tcell.KeyRight, tcell.KeyDown}, label: "tab", help: "key.next",
		when: (*UI).choosing,
		do:   func(u *UI, _ *tcell.EventKey) { u.sel = (u.sel + 1) % len(u.rolled.Moves) }},
	{keys: []tcell.Key{tcell.KeyBacktab, tcell.KeyLeft, tcell.KeyUp}, label: "shift-tab", help: "key.prev", more: true,
		when: (*UI).choosing,
		do: func(u *UI, _ *tcell.EventKey) {
			u.sel = (u.sel + len(u.rolled.Moves) - 1) % len(u.rolled.Moves)
		}},
	{keys: []tcell.Key{tcell.KeyEnter}, label: "enter", help: "key.play",
		when: (*UI).choosing,
		do:   func(u *UI, _ *tcell.EventKey) { u.choose(u.sel) }},
	{runes: "c", label: "c", help: "key.create",
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby },
		do: func(u *UI, _ *tcell.EventKey) {
			r := u.rules
			u.do("create", func() error { return u.sess.CreateGame(r) })
		}},
	{runes: "123456789", label: "1-9", help: "key.join",
		when: func(u *UI) bool {
			return u.free() && u.mode == modeLobby && len(u.lobby.Games)+len(u.lobby.Running)+len(u.lobby.Continue) > 0
		},
		do: func(u *UI, ev *tcell.EventKey) {
			i := int(ev.Rune() - '1')
			if i < len(u.lobby.Games) {
				id := u.lobby.Games[i].ID
				u.do("join", func() error { return u.sess.Join(id) })
				return
			}
			i -= len(u.lobby.Games)
			if w, ok := u.sess.(Watcher); ok && i < len(u.lobby.Running) {
				name := u.lobby.Running[i].Lobby
				u.do("watch", func() error { return w.Watch(name) })
				return
			}
			i -= len(u.lobby.Running)
			if c, ok := u.sess.(Continuer); ok && i < len(u.lobby.Continue) {
				name := u.lobby.Continue[i].Lobby
				u.do("continue", func() error { return c.Continue(name) })
			}
		}},
	{runes: "j", label: "j", help: "key.takeseat",
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby && u.seatFree() },
		do:   func(u *UI, _ *tcell.EventKey) { u.startInput(inputSeat, "") }},
	{runes: "n", label: "n", help: "key.name",
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby },
		do:   func(u *UI, _ *tcell.EventKey) { u.startInput(inputName, plain(u.lobby.Me.Name, maxName)) }},
	{runes: "a", label: "a", help: "key.connect",
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby && u.lobby.Me.Addr != "" },
		do:   func(u *UI, _ *tcell.EventKey) { u.startInput(inputAddr, "") }},
	{runes: "t", label: "t", help: "key.takeoff", more: true,
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby },
		do:   func(u *UI, _ *tcell.EventKey) { u.rules = nextRule(u.rules, 0) }},
	{runes: "o", label: "o", help: "key.overshoot", more: true,
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby },
		do:   func(u *UI, _ *tcell.EventKey) { u.rules = nextRule(u.rules, 1) }},
	{runes: "k", label: "k", help: "key.stack", more: true,
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby },
		do:   func(u *UI, _ *tcell.EventKey) { u.rules = nextRule(u.rules, 2) }},
	{runes: "f", label: "f", help: "key.flyjump", more: true,
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby },
		do:   func(u *UI, _ *tcell.EventKey) { u.rules = nextRule(u.rules, 3) }},
	// At the table the letters are taken (t chat, k seat up): the
	// creator changes a rule by its line's number.
	{runes: tableRuleKeys, label: "1-4", help: "key.tablerule", more: true,
		when: (*UI).settingRules,
		do: func(u *UI, ev *tcell.EventKey) {
			r := nextRule(u.table.Rules, strings.IndexRune(tableRuleKeys, ev.Rune()))
			rs := u.sess.(RulesSetter)
			u.do("rules", func() error { return rs.SetRules(r) })
		}},
	{keys: []tcell.Key{tcell.KeyUp, tcell.KeyDown}, runes: "jk", label: "↑↓", help: "key.seat",
		when: (*UI).choosingSeat,
		do: func(u *UI, ev *tcell.EventKey) {
			d := 1
			if ev.Key() == tcell.KeyUp || ev.Rune() == 'k' {
				d = engine.NumColours - 1
			}
			u.seatSel = (u.seatSel + d) % engine.NumColours
		}},
	{runes: "+", label: "+", help: "key.person",
		when: func(u *UI) bool {
			_, ok := u.sess.(PersonAdder)
			return ok && u.tableSetup() && u.mySeat() < engine.NumColours
		},
		do: func(u *UI, _ *tcell.EventKey) { u.startInput(inputPerson, "") }},
	{runes: "b", label: "b", help: "key.bot",
		when: (*UI).hostSetup,
		do:   func(u *UI, _ *tcell.EventKey) { u.cycleSeat() }},
	{runes: "w", label: "w", help: "key.setupbot", more: true,
		when: (*UI).choosingSetupBot,
		do: func(u *UI, _ *tcell.EventKey) {
			sb := u.sess.(SetupBotChooser)
			on := !u.table.SetupBot
			u.do("setupbot", func() error { return sb.SetSetupBot(on) })
		}},
	{runes: "p", label: "p", help: "key.pace", more: true,
		when: (*UI).settingPace,
		do:   func(u *UI, _ *tcell.EventKey) { u.nextPace() }},
	{runes: "x", label: "x", help: "key.remove", spare: true,
		when: (*UI).canRemove,
		do: func(u *UI, _ *tcell.EventKey) {
			sr := u.sess.(SeatRemover)
			c := engine.Colour(u.seatSel)
			u.do("remove", func() error { return sr.RemoveSeat(c) })
		}},
	{runes: "c", label: "c", help: "key.colour",
		when: (*UI).canSit,
		do:   func(u *UI, _ *tcell.EventKey) { u.sit() }},
	{runes: "r", label: "r", help: "key.ready",
		when: (*UI).canSit,
		do: func(u *UI, _ *tcell.EventKey) {
			sc, _ := u.seatChooser()
			ready := !u.table.Seats[u.mySeat()].Ready
			u.do("ready", func() error { return sc.SetReady(ready) })
		}},
	{keys: []tcell.Key{tcell.KeyEnter}, label: "enter", help: "key.start",
		when: func(u *UI) bool { return u.free() && u.mode == modeTable && u.table != nil && !u.table.Started },
		do:   func(u *UI, _ *tcell.EventKey) { u.do("start", u.sess.Start) }},
	{runes: "t", label: "t", help: "key.chat",
		when: func(u *UI) bool { return u.free() && u.mode != modeLobby },
		do:   func(u *UI, _ *tcell.EventKey) { u.startInput(inputChat, "") }},
	{runes: "b", label: "b", help: "key.bell", spare: true,
		when: func(u *UI) bool { return u.free() && u.mode == modeGame && u.over == nil },
		do:   func(u *UI, _ *tcell.EventKey) { u.toggleBell() }},
	{runes: "s", label: "s", help: "key.stats", more: true,
		when: func(u *UI) bool { return u.input == inputNone && u.mode == modeGame && u.overlay != overlayEnd },
		do:   func(u *UI, _ *tcell.EventKey) { u.toggle(overlayStats) }},
	{runes: "m", label: "m", help: "key.phone", spare: true,
		when: func(u *UI) bool {
			return u.input == inputNone && u.servingPhones() && (u.overlay == overlayNone || u.overlay == overlayPhone)
		},
		do: func(u *UI, _ *tcell.EventKey) { u.toggle(overlayPhone) }},
	{runes: "i", label: "i", help: "key.rules", more: true,
		when: func(u *UI) bool { return u.input == inputNone },
		do:   func(u *UI, _ *tcell.EventKey) { u.toggle(overlayRules) }},
	{runes: "j", label: "j", help: "key.takeseat",
		when: func(u *UI) bool { return u.free() && u.mode == modeGame && u.watchingLive() },
		do: func(u *UI, _ *tcell.EventKey) {
			name := u.watch.Lobby
			if st, ok := u.sess.(SeatTaker); ok {
				u.do("take seat", func() error { return st.TakeSeat(name, engine.NoColour) })
			}
		}},
	{runes: "r", label: "r", help: "key.rematch",
		when: func(u *UI) bool { return u.input == inputNone && u.over != nil && u.mode == modeGame },
		do:   func(u *UI, _ *tcell.EventKey) { u.do("rematch", u.sess.Rematch) }},
	{keys: []tcell.Key{tcell.KeyPgUp, tcell.KeyPgDn, tcell.KeyHome, tcell.KeyEnd}, label: "PgUp/PgDn", help: "key.history", spare: true,
		when: func(u *UI) bool { return u.free() && u.mode == modeGame && (u.sc.logOver || u.sc.logBack > 0) },
		do:   func(u *UI, ev *tcell.EventKey) { u.scrollHistory(ev) }},
	{keys: []tcell.Key{tcell.KeyUp, tcell.KeyDown, tcell.KeyPgUp, tcell.KeyPgDn}, label: "PgUp/PgDn", help: "key.scroll",
		when: func(u *UI) bool { return u.free() && u.mode == modeLobby && u.sc.lobbyOver },
		do:   func(u *UI, ev *tcell.EventKey) { u.scrollLobby(ev) }},
	{keys: []tcell.Key{tcell.KeyUp, tcell.KeyDown, tcell.KeyPgUp, tcell.KeyPgDn}, label: "↑↓", help: "key.scroll",
		when: func(u *UI) bool { return u.input == inputNone && u.overlay != overlayNone && u.overlay != overlayPhone },
		do: func(u *UI, ev *tcell.EventKey) {
			d := map[tcell.Key]int{tcell.KeyUp: -1, tcell.KeyDown: 1, tcell.KeyPgUp: -10, tcell.KeyPgDn: 10}[ev.Key()]
			u.scroll = max(u.scroll+d, 0)
		}},
	{keys: []tcell.Key{tcell.KeyEnter}, label: "enter", help: "key.send",
		when: func(u *UI) bool { return u.input != inputNone },
		do:   func(u *UI, _ *tcell.EventKey) { u.submitInput() }},
	{keys: []tcell.Key{tcell.KeyBackspace, tcell.KeyBackspace2}, label: "", help: "key.erase",
		when: func(u *UI) bool { return u.input != inputNone },
		do: func(u *UI, _ *tcell.EventKey) {
			if n := len(u.editor); n > 0 {
				u.editor = u.editor[:n-1]
			}
		}},
	{keys: []tcell.Key{tcell.KeyEscape}, label: "esc", help: "key.close",
		when: func(u *UI) bool { return u.input != inputNone || u.overlay != overlayNone || u.notice != "" },
		do: func(u *UI, _ *tcell.EventKey) {
			switch {
			case u.input != inputNone:
				u.input, u.editor = inputNone, nil
			case u.overlay != overlayNone:
				u.overlay = overlayNone
			default:
				u.notice = ""
			}
		}},
	{runes: "q", label: "q", help: "key.quit",
		when: func(u *UI) bool { return u.input == inputNone },
		do:   func(u *UI, _ *tcell.EventKey) { u.quit() }},
	// While typing, q is a letter: Ctrl-C still leaves.
	{keys: []tcell.Key{tcell.KeyCtrlC}, label: "ctrl-c", help: "key.quit", more: true,
		when: func(u *UI) bool { return true },
		do:   func(u *UI, _ *tcell.EventKey) { u.quit() }},
	// The answers to "leave the game?" (only they act while it is asked).
	{runes: "y", label: "y", help: "key.leave", dialog: true,
		when: func(u *UI) bool { return u.confirm },
		do:   func(u *UI, _ *tcell.EventKey) { u.leave() }},
	{runes: "p", label: "p", help: "key.pause", dialog: true,
		when: func(u *UI) bool { _, ok := u.sess.(Pauser); return u.confirm && ok },
		do:   func(u *UI, _ *tcell.EventKey) { u.pause() }},
	{runes: "n", keys: []tcell.Key{tcell.KeyEscape}, label: "n/esc", help: "key.stay", dialog: true,
		when: func(u *UI) bool { return u.confirm },
		do:   func(u *UI, _ *tcell.EventKey) { u.confirm = false }},
	// Pausing the game for everyone (pausegame.go): p asks, y/n answer.
	{runes: "p", label: "p", help: "key.pausegame", spare: true,
		when: (*UI).canAskPause,
		do:   func(u *UI, _ *tcell.EventKey) { u.askPause = true }},
	{runes: "p", label: "p", help: "key.liftpause", spare: true,
		when: (*UI).canPlayOn,
		do:   func(u *UI, _ *tcell.EventKey) { u.playOn() }},
	{runes: "y", label: "y", help: "key.pauseall", dialog: true,
		when: func(u *UI) bool { return u.askPause && !u.confirm },
		do:   func(u *UI, _ *tcell.EventKey) { u.pauseTogether() }},
	{runes: "n", keys: []tcell.Key{tcell.KeyEscape}, label: "n/esc", help: "key.playon", dialog: true,
		when: func(u *UI) bool { return u.askPause && !u.confirm },
		do:   func(u *UI, _ *tcell.EventKey) { u.askPause = false }},
	// Leaving: the session is telling the others; q quits without waiting.
	{runes: "q", keys: []tcell.Key{tcell.KeyCtrlC}, label: "q", help: "key.quitnow", dialog: true,
		when: func(u *UI) bool { return u.leaving },
		do:   func(u *UI, _ *tcell.EventKey) { u.stop() }},
	// The answers to the lone player's question (AloneDecision).
	{runes: "w", keys: []tcell.Key{tcell.KeyEscape}, label: "w/esc", help: "key.wait", dialog: true,
		when: func(u *UI) bool { return u.askAlone && !u.confirm },
		do:   func(u *UI, _ *tcell.EventKey) { u.askAlone = false }},
	{runes: "g", label: "g", help: "key.goon", dialog: true,
		when: func(u *UI) bool { return u.askAlone && !u.confirm },
		do:   func(u *UI, _ *tcell.EventKey) { u.goOn() }},
	{runes: "e", label: "e", help: "key.endgame", dialog: true,
		when: func(u *UI) bool { return u.askAlone && !u.confirm },
		do:   func(u *UI, _ *tcell.EventKey) { u.endAlone() }},
	// Put off, the question comes back with a key while it is open.
	{runes: "g", label: "g", help: "key.askalone",
		when: func(u *UI) bool { return u.canAskAlone() },
		do:   func(u *UI, _ *tcell.EventKey) { u.askAlone = true }},
}

// mySeat is this player's colour at the table (NoColour: not seated):
// its own seat's, or with several people here (hot seat) and none of
// them this program's own ID, the first of theirs.
func (u *UI) mySeat() engine.Colour {
	for c, s := range u.table.Seats {
		if s.You && s.Kind == SeatHuman && s.PeerID != "" && s.PeerID == u.lobby.Me.ID {
			return engine.Colour(c)
		}
	}
	for c, s := range u.table.Seats {
		if s.You && s.Kind == SeatHuman {
			return engine.Colour(c)
		}
	}
	return engine.NoColour
}

// sit asks for the colour under the cursor or, when that is this player's
// own or somebody else's, the next free colour after this player's: so
// the key both picks (with the cursor) and cycles (pressed again).
func (u *UI) sit() {
	sc, _ := u.seatChooser()
	free := func(c int) bool {
		k := u.table.Seats[c].Kind
		return k == SeatOpen || k == SeatUnused
	}
	c := u.seatSel
	if !free(c) {
		mine := int(u.mySeat())
		for i := 1; i < engine.NumColours; i++ {
			if n := (mine + i) % engine.NumColours; free(n) {
				c = n
				break
			}
		}
	}
	if !free(c) {
		u.notice = u.t("notice.nofree")
		return
	}
	col := engine.Colour(c)
	u.seatSel = c
	u.do("colour", func() error { return sc.ChooseColour(col) })
}

// cycleSeat gives the selected seat to the next bot kind, then opens it.
// canRemove: the creator's cursor is on another player who is not ready,
// and the session lets the creator take such a seat back.
// choosingSetupBot: the creator of a table being set up chooses what
// follows a player who never confirms the game.
func (u *UI) choosingSetupBot() bool {
	_, ok := u.sess.(SetupBotChooser)
	return ok && u.hostSetup()
}

func (u *UI) canRemove() bool {
	if _, ok := u.sess.(SeatRemover); !ok || !u.hostSetup() {
		return false
	}
	seat := u.table.Seats[u.seatSel]
	return seat.Kind == SeatHuman && !seat.You && !seat.Ready
}

func (u *UI) cycleSeat() {
	seat := u.table.Seats[u.seatSel]
	if seat.You || seat.Kind == SeatHuman {
		return
	}
	kinds := engine.BotKinds()
	next := ""
	if seat.Kind == SeatOpen || seat.Kind == SeatUnused {
		next = kinds[0]
	} else {
		for i, k := range kinds {
			if k == seat.Name && i+1 < len(kinds) {
				next = kinds[i+1]
			}
		}
	}
	c := engine.Colour(u.seatSel)
	u.do("seat", func() error { return u.sess.SetSeat(c, next) })
}

func (u *UI) typeRune(r rune) {
	if len(u.editor) < maxChat {
		u.editor = append(u.editor, r)
	}
}

// HandleKey dispatches one key press through the key table. A key that
// means nothing now does nothing.
func (u *UI) HandleKey(ev *tcell.EventKey) {
	defer u.syncWeb() // a key may go back to the list of games (endAlone)
	for i := range keyTable {
		b := &keyTable[i]
		if b.matches(ev) && b.active(u) {
			b.do(u, ev)
			return
		}
	}
	if u.input != inputNone && !u.asking() && ev.Key() == tcell.KeyRune {
		u.typeRune(ev.Rune())
	}
}

// keyText is how the key lines write an active binding.
func (u *UI) keyText(b *binding) string {
	label := b.label
	if b.help == "key.choose" {
		label = "1"
		if n := len(u.rolled.Moves); n > 1 {
			label += "-" + string(rune('0'+n))
		}
	}
	return "[::b]" + label + "[::-] " + u.t(b.help)
}

// activeKeys is the bottom line: the keys that do something now, and
// those of them to show only where there is room.
func (u *UI) activeKeys() (out, spare []string) {
	seen := map[string]bool{}
	for i := range keyTable {
		b := &keyTable[i]
		if b.label == "" || b.more || !b.active(u) {
			continue
		}
		s := u.keyText(b)
		if !seen[s] {
			seen[s] = true
			if b.spare {
				spare = append(spare, s)
			} else {
				out = append(out, s)
			}
		}
	}
	return out, spare
}
