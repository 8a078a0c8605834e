package ui

import (
	"fmt"
	"strings"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// layout is where the last draw put things, for mouse clicks.
type layout struct {
	board    boardLayout
	hasBoard bool
	hits     []hit // clickable places (mouse.go)
}

// compact is the layout for screens smaller than 120×36: one text line
// per board cell, four columns wide.
func isCompact(w, h int) bool { return w < 120 || h < 36 }

// Draw paints the whole interface into the w×h screen.
func (u *UI) Draw(scr tcell.Screen, w, h int) {
	// The key lines depend on whether the lists overflow, which the draw
	// finds out: when it changes, draw again with the right keys.
	u.turn.ring(scr)
	for pass := 0; pass < 2; pass++ {
		before := u.sc
		u.draw(scr, w, h)
		if before.logOver == u.sc.logOver && before.lobbyOver == u.sc.lobbyOver {
			return
		}
	}
}

func (u *UI) draw(scr tcell.Screen, w, h int) {
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			scr.SetContent(x, y, ' ', nil, tcell.StyleDefault)
		}
	}
	u.layout = layout{}
	keys, keyAt := u.statusLines(w)
	if len(keys) > max(h-1, 0) {
		keys = keys[:max(h-1, 0)]
	}
	u.keyRows = len(keys)
	body := h - len(keys)
	switch {
	case u.mode == modeLobby:
		u.drawLobby(scr, w, body)
	case u.mode == modeTable:
		u.drawTable(scr, w, body)
	case tooSmall(w, h):
		u.drawTooSmall(scr, w, body)
	default:
		u.drawGame(scr, w, body)
	}
	if u.mode != modeGame || !tooSmall(w, h) {
		u.drawOverlay(scr, w, body+1)
	}
	switch {
	case u.confirm:
		u.drawQuestion(scr, w, body, "leave.title", "leave.text")
	case u.leaving:
		u.drawQuestion(scr, w, body, "leaving.title", "leaving.text")
	case u.askAlone:
		u.drawAlone(scr, w, body)
	case u.askPause:
		u.drawQuestion(scr, w, body, "pause.title", "pause.text")
	}
	for i, l := range keys {
		printLine(scr, 0, body+i, w, l)
	}
	for _, p := range keyAt {
		if p.line < len(keys) {
			u.keyHits(0, body, []placed{p})
		}
	}
}

func printLine(scr tcell.Screen, x, y, w int, text string) {
	if w > 0 {
		tview.Print(scr, text, x, y, w, tview.AlignLeft, tcell.ColorDefault)
	}
}

// panel draws a titled block of lines; with fromEnd it shows the last
// lines that fit (logs), else the first.
func panel(scr tcell.Screen, x, y, w, h int, title string, lines []string, fromEnd bool) {
	if h <= 0 || w <= 0 {
		return
	}
	printLine(scr, x, y, w, "[::bu]"+title+"[::-]")
	var wrapped []string
	for _, l := range lines {
		if l == "" {
			wrapped = append(wrapped, "")
			continue
		}
		wrapped = append(wrapped, tview.WordWrap(l, w)...)
	}
	room := h - 1
	if fromEnd && len(wrapped) > room {
		wrapped = wrapped[len(wrapped)-room:]
	}
	for i := 0; i < room && i < len(wrapped); i++ {
		printLine(scr, x, y+1+i, w, wrapped[i])
	}
}

// statusLines are the bottom lines: what is being typed, then the keys
// that do something now, wrapped onto at most maxKeyLines lines of w.
func (u *UI) statusLines(w int) ([]string, []placed) {
	var parts []string
	if u.input != inputNone {
		prompt := map[inputMode]string{inputChat: "prompt.chat", inputName: "prompt.name", inputAddr: "prompt.addr", inputPerson: "prompt.person", inputSeat: "prompt.takeseat"}[u.input]
		parts = append(parts, "[::r]"+u.t(prompt)+" "+escapeTags(string(u.editor))+"_[::-]")
	}
	keys, spare := u.activeKeys()
	lines, at := packPlaced(append(parts, keys...), spare, w)
	if len(lines) > maxKeyLines {
		lines = lines[:maxKeyLines]
	}
	return lines, at
}

// noticeLines is the notice wrapped to w cells, each line in the notice's
// colour, later lines indented under the text.
func (u *UI) noticeLines(w int) []string {
	if u.notice == "" {
		return nil
	}
	return wrapTagged("! "+u.notice, "[yellow::b]", w, 2)
}

func (u *UI) drawLobby(scr tcell.Screen, w, h int) {
	var lines []string
	var acts []func() // what a click on each line does (nil: nothing)
	add := func(s ...string) { lines = append(lines, s...) }
	addAct := func(f func(), s ...string) {
		for len(acts) < len(lines) {
			acts = append(acts, nil)
		}
		for range s {
			acts = append(acts, f)
		}
		add(s...)
	}
	lobbyFree := func() bool { return u.free() && u.mode == modeLobby }
	add("[::b]"+u.t("app.title")+"[::-] — "+u.t("lobby.title"), "")
	name := clean(u.lobby.Me.Name, maxName)
	if u.input == inputName {
		name = "[::r]" + escapeTags(string(u.editor)) + "_[::-]"
	}
	addAct(func() {
		if lobbyFree() {
			u.startInput(inputName, plain(u.lobby.Me.Name, maxName))
		}
	}, u.t("lobby.name", name))
	if u.lobby.Me.Addr == "" {
		add(u.t("lobby.addr", u.t("lobby.offline")))
	} else {
		add(u.t("lobby.addr", clean(u.lobby.Me.Addr, 200)))
	}
	if l := u.phoneLine(); l != "" {
		addAct(u.openPhone, l)
	}
	add("", "[::u]"+u.t("lobby.games")+"[::-]")
	if len(u.lobby.Games) == 0 {
		add("  " + u.t("lobby.none"))
	}
	// Every game is listed (the list scrolls), tables, then running games,
	// then games to continue, numbered on through the three lists; keys
	// 1-9 take the first nine, a click any of them.
	digits := len(fmt.Sprint(len(u.lobby.Games) + len(u.lobby.Running) + len(u.lobby.Continue)))
	for i, g := range u.lobby.Games {
		seats := g.Seats
		if seats <= 0 {
			seats = engine.NumColours
		}
		rules := u.rulesSummary(g.Rules)
		id := g.ID
		addAct(func() {
			if lobbyFree() {
				u.do("join", func() error { return u.sess.Join(id) })
			}
		}, wrapTagged(fmt.Sprintf("  %*d) ", digits, i+1)+u.t("lobby.game", clean(g.Host.Name, maxName), g.Taken, seats, rules)+u.unverified(g.Host), "", w-2, 4+digits)...)
	}
	if len(u.lobby.Games) > 9 {
		add("  [::d]" + u.t("lobby.more") + "[::-]")
	}
	if len(u.lobby.Running) > 0 {
		add("", "[::u]"+u.t("lobby.running")+"[::-]")
	}
	// A running game's players answered a query over a proven connection
	// (lobby.QueryRunning), so its line needs no "unverified" mark.
	for i, g := range u.lobby.Running {
		k := len(u.lobby.Games) + i
		var names []string
		for _, n := range g.Players {
			names = append(names, clean(n, maxName))
		}
		line := u.t("lobby.runninggame", strings.Join(names, ", "), g.Roll, g.Watchers)
		if g.Leader < engine.NumColours {
			line = u.t("lobby.runninglead", strings.Join(names, ", "), g.Roll, u.colourName(g.Leader), g.Watchers)
		}
		name := g.Lobby
		addAct(func() {
			if ws, ok := u.sess.(Watcher); ok && lobbyFree() {
				u.do("watch", func() error { return ws.Watch(name) })
			}
		}, wrapTagged(fmt.Sprintf("  %*d) ", digits, k+1)+line, "", w-2, 4+digits)...)
	}
	if len(u.lobby.Continue) > 0 {
		add("", "[::u]"+u.t("lobby.continue")+"[::-]")
	}
	for i, g := range u.lobby.Continue {
		k := len(u.lobby.Games) + len(u.lobby.Running) + i
		var names []string
		for _, n := range g.Players {
			names = append(names, clean(n, maxName))
		}
		day := u.t(fmt.Sprintf("weekday.%d", int(g.Saved.Weekday())))
		line := u.t("lobby.continuegame", strings.Join(names, ", "), g.Roll, day, g.Saved.Format("2006-01-02"))
		name := g.Lobby
		addAct(func() {
			if c, ok := u.sess.(Continuer); ok && lobbyFree() {
				u.do("continue", func() error { return c.Continue(name) })
			}
		}, wrapTagged(fmt.Sprintf("  %*d) ", digits, k+1)+line, "", w-2, 4+digits)...)
	}
	add("", "[::u]"+u.t("lobby.players")+"[::-]")
	if len(u.lobby.Players) == 0 {
		add("  " + u.t("lobby.none"))
	}
	for _, p := range u.lobby.Players {
		add("  " + clean(p.Name, maxName) + "  " + shortID(p.ID) + "  " + clean(p.Addr, 80) + u.unverified(p))
	}
	add("", "[::u]"+u.t("lobby.rules")+"[::-]")
	for i, l := range u.optionLines(u.rules, lobbyRuleKeys) {
		addAct(func() {
			if lobbyFree() {
				u.rules = nextRule(u.rules, i)
			}
		}, l)
	}
	tw, aside := u.phoneAside(w, h)
	add("", u.t("lobby.hint"))
	add(u.noticeLines(tw - 2)...)
	u.drawScrolled(scr, 1, 1, tw-2, h-1, lines, acts)
	if aside {
		u.drawPhoneAside(scr, w, 1, h-1)
	}
}

// unverified marks a line whose peer only an advert names (Peer.Unverified).
func (u *UI) unverified(p Peer) string {
	if !p.Unverified {
		return ""
	}
	return "  [yellow](" + u.t("lobby.unverified") + ")[-]"
}

// shortID is the end of a peer ID, enough to tell peers apart by eye.
func shortID(id string) string {
	id = plain(id, 64)
	if len(id) > 6 {
		id = id[len(id)-6:]
	}
	return escapeTags(id)
}

// optionLines lists the rule options with the active value marked; with
// keys (one per option, in order), each line starts with the key that
// changes it.
func (u *UI) optionLines(r engine.Rules, keys string) []string {
	mark := func(on bool, s string) string {
		if on {
			return "[::r]*" + s + "[::-]"
		}
		return s
	}
	rows := []struct {
		name   string
		vals   []string
		active int
	}{
		{"opt.takeoff", []string{"opt.takeoff.even", "opt.takeoff.six", "opt.takeoff.fivesix"}, int(r.Takeoff)},
		{"opt.overshoot", []string{"opt.overshoot.bounce", "opt.overshoot.stay"}, b2i(r.StayOnOvershoot)},
		{"opt.stack", []string{"opt.stack.on", "opt.stack.off"}, b2i(r.NoStacks)},
		{"opt.flyjump", []string{"opt.flyjump.off", "opt.flyjump.on"}, b2i(r.FlyJump)},
	}
	var out []string
	for i, row := range rows {
		var vals []string
		for i, v := range row.vals {
			vals = append(vals, mark(i == row.active, u.t(v)))
		}
		s := u.t(row.name) + ": " + strings.Join(vals, "  ")
		if i < len(keys) {
			s = "  [::b]" + keys[i:i+1] + "[::-] " + s
		}
		out = append(out, s)
	}
	return out
}

// rulesSummary is the rules in one short translated line (the lobby's
// games, the line under the compact board): each option's value as the
// table names it.
func (u *UI) rulesSummary(r engine.Rules) string {
	takeoff := [...]string{"opt.takeoff.even", "opt.takeoff.six", "opt.takeoff.fivesix"}[r.Takeoff%3]
	overshoot := [...]string{"opt.overshoot.bounce", "opt.overshoot.stay"}[b2i(r.StayOnOvershoot)]
	stack := [...]string{"opt.stack.on", "opt.stack.off"}[b2i(r.NoStacks)]
	flyjump := [...]string{"opt.flyjump.off", "opt.flyjump.on"}[b2i(r.FlyJump)]
	return u.t("rules.summary", u.t(takeoff), u.t(overshoot), u.t(stack), u.t(flyjump))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (u *UI) seatLine(c engine.Colour, s Seat) string {
	who := ""
	switch s.Kind {
	case SeatOpen:
		who = u.t("seat.open")
	case SeatUnused:
		who = "[::d]" + u.t("seat.unused") + "[::-]"
	case SeatBot:
		who = u.t("seat.bot", clean(s.Name, maxName))
	default:
		who = clean(s.Name, maxName)
		if id := shortID(s.PeerID); id != "" && s.PeerID != "solo" {
			who += " " + id
		}
		if s.Web {
			who += " (" + u.t("table.phone") + ")"
		}
	}
	return fmt.Sprintf("[%s::b]%c[-::-] %s", tagColour[c], c.Letter(), who)
}

func (u *UI) seatStatus(c engine.Colour, s Seat) string {
	switch {
	case s.You && u.resuming && u.mode == modeGame:
		return "[yellow]" + u.t("status.resuming") + "[-]"
	case s.You:
		return u.t("status.you")
	case s.Kind == SeatBot, s.Kind == SeatOpen, s.Kind == SeatUnused:
		return ""
	case u.left[c]:
		return "[red]" + u.t("status.left") + "[-]"
	case u.absent[c]:
		return "[red]" + u.t("status.absentbot") + "[-]"
	case u.catching[c]:
		return "[yellow]" + u.t("status.catchingup") + "[-]"
	case !s.Present:
		return "[red]" + u.t("status.absent") + "[-]"
	case u.back[c]:
		return "[green]" + u.t("status.back") + "[-]"
	}
	return u.t("status.connected")
}

func (u *UI) drawTable(scr tcell.Screen, w, h int) {
	t := u.table
	var lines []string
	var acts []func() // what a click on each line does (nil: nothing)
	act := func(f func()) {
		for len(acts) < len(lines)-1 {
			acts = append(acts, nil)
		}
		acts = append(acts, f)
	}
	title := u.t("table.title", clean(t.GameID, 40))
	if t.Offline {
		title = u.t("table.offline")
	}
	lines = append(lines, "[::b]"+u.t("app.title")+"[::-] — "+title)
	if l := u.phoneLine(); l != "" {
		lines = append(lines, l)
		act(u.openPhone)
	}
	lines = append(lines, "")
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		s := t.Seats[c]
		cursor := "  "
		if u.choosingSeat() && int(c) == u.seatSel {
			cursor = "[::r]>[::-] "
		}
		ready := ""
		_, choosers := u.seatChooser()
		switch {
		case s.Ready && s.Kind == SeatHuman:
			ready = " — [green]" + u.t("status.ready") + "[-]"
		case choosers && s.Kind == SeatHuman && !t.Started:
			ready = " — [yellow]" + u.t("status.notready") + "[-]"
		}
		lines = append(lines, cursor+u.seatLine(c, s)+"  "+u.seatStatus(c, s)+ready)
		// A click puts the cursor on the seat, for the keys that act on it.
		act(func() {
			if u.choosingSeat() {
				u.seatSel = int(c)
			}
		})
	}
	lines = append(lines, "", "[::u]"+u.t("panel.rules")+"[::-]")
	keys := ""
	if u.settingRules() {
		keys = tableRuleKeys
	}
	for i, l := range u.optionLines(t.Rules, keys) {
		lines = append(lines, l)
		act(func() {
			if u.settingRules() {
				r := nextRule(u.table.Rules, i)
				rs := u.sess.(RulesSetter)
				u.do("rules", func() error { return rs.SetRules(r) })
			}
		})
	}
	if u.choosingSetupBot() {
		mark := func(on bool, s string) string {
			if on {
				return "[::r]*" + s + "[::-]"
			}
			return s
		}
		lines = append(lines, "  [::b]w[::-] "+u.t("table.setupbot")+": "+
			mark(!t.SetupBot, u.t("table.setupbot.wait"))+"  "+mark(t.SetupBot, u.t("table.setupbot.bot")))
		act(func() { // as the w key
			if sb, ok := u.sess.(SetupBotChooser); ok && u.choosingSetupBot() {
				on := !u.table.SetupBot
				u.do("setupbot", func() error { return sb.SetSetupBot(on) })
			}
		})
	}
	paceKey := ""
	if u.settingPace() {
		paceKey = "p"
	}
	if _, ok := u.paceSetter(); ok {
		lines = append(lines, u.paceLine(t, paceKey))
		act(func() { // as the p key
			if u.settingPace() {
				u.nextPace()
			}
		})
	}
	hint := "table.guest"
	if t.Host {
		hint = "table.hint"
	}
	tw, aside := u.phoneAside(w, h)
	lines = append(lines, "", u.t(hint))
	lines = append(lines, u.noticeLines(tw-2)...)
	top := 1
	for i, l := range lines {
		n := max(len(tview.WordWrap(l, tw-2)), 1)
		if i < len(acts) {
			for k := 0; k < n; k++ {
				u.addHit(1, top+k, tw-2, acts[i])
			}
		}
		top += n
	}
	panel(scr, 1, 0, tw-2, top, "", lines, false)
	u.drawChat(scr, 1, top, tw-2, h-top)
	if aside {
		u.drawPhoneAside(scr, w, 1, h-1)
	}
}

func (u *UI) drawChat(scr tcell.Screen, x, y, w, h int) {
	lines := append([]string(nil), u.chat...)
	if u.input == inputChat {
		lines = append(lines, "> "+escapeTags(string(u.editor))+"_")
	}
	panel(scr, x, y, w, h, u.t("panel.chat"), lines, true)
}

func (u *UI) drawGame(scr tcell.Screen, w, h int) {
	bl := boardLayout{cw: 4, ch: 1}
	compact := isCompact(w, h+u.keyRows)
	if !compact {
		bl = boardLayout{cw: 5, ch: 2}
	}
	u.layout = layout{board: bl, hasBoard: true}
	m := u.shown()
	drawBoard(scr, bl, &m)
	rx := bl.width() + 1
	rw := w - rx
	y := 0
	// The players and the turn take the rows their wrapped lines need, so
	// that no move is cut; the chat has the rest.
	players := wrapAll(u.playerLines(rw), rw)
	panel(scr, rx, y, rw, len(players)+1, u.t("panel.players"), players, false)
	y += len(players) + 1
	turnText, turnActs := u.turnLines()
	turn, turnActs := wrapActs(turnText, turnActs, rw)
	th := 6
	if !compact {
		th = 8
	}
	th = max(th, len(turn)+1)
	panel(scr, rx, y, rw, th, u.t("panel.turn"), turn, false)
	u.linesHits(rx, y+1, rw, turnActs[:min(len(turnActs), th-1)])
	y += th
	if !compact {
		opts := wrapAll(u.optionLines(u.playing, ""), rw)
		panel(scr, rx, y, rw, len(opts)+1, u.t("panel.rules"), opts, false)
		y += len(opts) + 1
		st := wrapAll(u.statsLines(), rw)
		panel(scr, rx, y, rw, len(st)+1, u.t("panel.dice"), st, false)
		y += len(st) + 1
	}
	u.drawChat(scr, rx, y, rw, h-y)
	by := bl.height()
	var under []string
	if u.notice != "" {
		under = u.noticeLines(bl.width())
	} else if compact {
		under = []string{"[::d]" + u.rulesSummary(u.playing) + "[::-]"}
	}
	for i, l := range under {
		printLine(scr, 0, by+i, bl.width(), l)
	}
	by += max(len(under), 1)
	u.drawLog(scr, 0, by, bl.width(), h-by)
}

func (u *UI) playerLines(w int) []string {
	var out []string
	if u.table == nil {
		return out
	}
	rank := map[engine.Colour]int{}
	order := u.pos.Order()
	if u.over != nil {
		order = u.over.Ranking
	}
	for i, c := range order {
		rank[c] = i + 1
	}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		if !u.pos.InPlay(c) {
			continue
		}
		s := u.table.Seats[c]
		turn := " "
		if u.pos.ToMove() == c {
			turn = "[::b]>[::-]"
		}
		place := ""
		if r, ok := rank[c]; ok {
			place = fmt.Sprintf(" #%d", r)
		}
		out = append(out, turn+u.seatLine(c, s)+" "+u.seatStatus(c, s)+place)
	}
	return out
}

// turnLines is the turn panel, with what a click on each line does: a
// move plays it, the line asking this player to roll rolls.
func (u *UI) turnLines() ([]string, []func()) {
	var out []string
	var acts []func()
	act := func(f func()) {
		for len(acts) < len(out)-1 {
			acts = append(acts, nil)
		}
		acts = append(acts, f)
	}
	if w := u.watch; w != nil && w.Lobby != "" {
		switch {
		case w.Problem != "" && !w.Over:
			out = append(out, "[red]"+u.t("watch.bad", clean(w.Problem, maxChat))+"[-]")
			out = append(out, u.t("watch.ok", w.Records, w.Roll, clean(w.From, maxName)))
		case w.Over && w.Paused:
			out = append(out, "[yellow]"+u.t("watch.paused", w.Roll, w.Records)+"[-]")
		case w.Over:
			out = append(out, "[green]"+u.t("watch.end", w.Records)+"[-]")
		default:
			out = append(out, "[green]"+u.t("watch.ok", w.Records, w.Roll, clean(w.From, maxName))+"[-]")
		}
	}
	if r := u.lastRoll; r != nil {
		if u.rolled != nil && u.rolled.YouChoose && u.hotSeat() {
			out = append(out, yourTurnStyle+" "+u.t("turn.hotchoice", u.seatName(u.rolled.Colour), tview.Escape(fmt.Sprintf("[%d]", r.Roll)))+" [-:-:-]")
		} else if u.rolled != nil && u.rolled.YouChoose {
			out = append(out, yourTurnStyle+" "+u.t("turn.yourchoice", tview.Escape(fmt.Sprintf("[%d]", r.Roll)))+" [-:-:-]")
		} else {
			out = append(out, u.t("turn.rolled", u.tagged(r.Colour), "[::b]"+tview.Escape(fmt.Sprintf("[%d]", r.Roll))+"[::-]"))
		}
	}
	switch {
	case u.over != nil:
		out = append(out, u.t("log.over"))
	case u.rolled != nil && u.rolled.YouChoose:
		for i, mv := range u.rolled.Moves {
			s := fmt.Sprintf("%d) %s", i+1, u.moveSummary(mv))
			if i == u.sel {
				s = "[::r]" + s + "[::-]"
			}
			out = append(out, s)
			act(func() {
				if u.choosing() {
					u.choose(i)
				}
			})
		}
	case u.resuming && u.over == nil:
		// Not "the die waits for X": nobody keeps this player waiting.
		out = append(out, "[yellow]"+u.t("turn.resuming")+"[-]")
	case u.waiting != nil && u.waiting.YouRoll && u.hotSeat():
		out = append(out, yourTurnStyle+" "+u.t("turn.hotroll", u.seatName(u.waiting.ToMove))+" [-:-:-]")
	case u.waiting != nil && u.waiting.YouRoll:
		out = append(out, yourTurnStyle+" "+u.t("turn.yourroll")+" [-:-:-]")
		act(func() {
			if u.canRoll() {
				u.do("roll", u.sess.Roll)
			}
		})
	case u.waiting != nil:
		var names []string
		for _, n := range u.waiting.Waiting {
			names = append(names, clean(n, maxName))
		}
		out = append(out, u.t("turn.waits", u.tagged(u.waiting.ToMove), strings.Join(names, ", ")))
	}
	if w := u.watch; w != nil && w.Lobby == "" && len(w.Watchers) > 0 {
		var names []string
		for _, n := range w.Watchers {
			names = append(names, clean(n, maxName))
		}
		out = append(out, "[::d]"+u.t("watch.by", strings.Join(names, ", "))+"[::-]")
	}
	if l := u.countdownLine(); l != "" {
		out = append(out, l)
	}
	if u.solo && u.over == nil {
		// Said while it lasts: this player could foresee the dice.
		out = append(out, "[yellow]"+u.t("turn.solo")+"[-]")
	}
	return out, acts
}

// hotSeat is whether several people play at this screen (several You
// seats): the turn line then names whose turn it is.
func (u *UI) hotSeat() bool {
	if u.table == nil {
		return false
	}
	n := 0
	for _, s := range u.table.Seats {
		if s.You && s.Kind == SeatHuman {
			n++
		}
	}
	return n > 1
}

// seatName is the name of the person at colour c, escaped for the screen.
func (u *UI) seatName(c engine.Colour) string {
	if u.table == nil || c >= engine.NumColours {
		return "?"
	}
	return clean(u.table.Seats[c].Name, maxName)
}

// moveSummary is "R0x2 13→17 flight→29 captures 1" for the moves list:
// the squares by the board's names (engine.Place.Name), where the roll
// ends, then each jump or flight, a bounce at the centre and captures.
func (u *UI) moveSummary(mv engine.Move) string {
	if mv.Kind != engine.PlaneMove {
		return mv.String()
	}
	_, res, err := u.pos.Play(u.playing, u.rolled.Roll, mv)
	if err != nil {
		return mv.String()
	}
	name := mv.String()
	if n := u.pos.StackSize(u.playing, mv.Colour, int(mv.Plane)); n > 1 {
		name += fmt.Sprintf("x%d", n)
	}
	return name + " " + u.wayOf(mv.Colour, res)
}

// wayOf is a move's way in the board's names: "13→17 flight→29".
func (u *UI) wayOf(c engine.Colour, res engine.Result) string {
	s := res.From.Name(c) + "→" + res.Landed.Name(c)
	if res.Bounced {
		s += " " + u.t("move.bounce")
	}
	if res.JumpTo >= 0 {
		s += " " + u.t("move.jump") + "→" + res.JumpTo.Name(c)
	}
	if res.FlyTo >= 0 {
		s += " " + u.t("move.fly") + "→" + res.FlyTo.Name(c)
	}
	if res.FlyJumpTo >= 0 {
		s += " " + u.t("move.jump") + "→" + res.FlyJumpTo.Name(c)
	}
	if res.NCaptures > 0 {
		s += " " + u.t("move.capture", res.NCaptures)
	}
	return s
}

func (u *UI) statsLines() []string {
	if u.stats.n == 0 {
		return []string{u.t("dice.none")}
	}
	return []string{
		u.stats.faces(),
		u.t("dice.test", u.stats.n, u.stats.chiSquare(), u.stats.pValue()),
	}
}

func (u *UI) drawOverlay(scr tcell.Screen, w, h int) {
	var title string
	var lines []string
	switch u.overlay {
	case overlayNone:
		return
	case overlayPhone:
		u.drawPhone(scr, w, h-1)
		return
	case overlayHelp:
		title = u.t("help.title")
		// Mark the keys that work once help is closed.
		u.overlay = overlayNone
		defer func() { u.overlay = overlayHelp }()
		for i := range keyTable {
			b := &keyTable[i]
			if b.label == "" {
				continue
			}
			now := "  "
			if b.active(u) {
				now = "* "
			}
			lines = append(lines, fmt.Sprintf("%s[::b]%-9s[::-] %s", now, b.label, u.t(b.help)))
		}
		if len(lines) > h-5 {
			lines = twoColumns(lines, (min(w-2, 76)-4)/2)
		}
		lines = append(lines, "", u.t("help.now"), "")
		lines = append(lines, u.legendLines()...)
	case overlayRules:
		title = u.t("rules.title")
		r := u.rules
		if u.hasPos {
			r = u.playing
		}
		lines = u.rulesText(r)
	case overlayStats:
		title = u.t("panel.dice")
		lines = append(u.statsLines(), "", u.t("dice.explain"))
	case overlayEnd:
		title = u.t("end.title")
		if u.over != nil {
			for i, c := range u.over.Ranking {
				name := ""
				if u.table != nil {
					name = u.seatLine(c, u.table.Seats[c])
				}
				lines = append(lines, fmt.Sprintf("%d. %s  %s", i+1, u.tagged(c), name))
			}
			lines = append(lines, "")
			if u.over.LogPath != "" {
				lines = append(lines, u.t("end.log", clean(u.over.LogPath, 300)))
			}
			keys, _ := u.activeKeys()
			lines = append(lines, packLines(keys, nil, min(w-2, 76)-4)...)
		}
	}
	bw := min(w-2, 76)
	inner := bw - 4
	room := h - 3
	var wrapped []string
	for _, l := range lines {
		if l == "" {
			wrapped = append(wrapped, "")
			continue
		}
		wrapped = append(wrapped, tview.WordWrap(l, inner)...)
	}
	u.scroll = max(min(u.scroll, len(wrapped)-room), 0)
	if u.scroll > 0 {
		wrapped = wrapped[u.scroll:]
		title += " ↑"
	}
	if len(wrapped) > room {
		title += " ↓"
	}
	bh := min(room+2, len(wrapped)+2)
	x, y := (w-bw)/2, max((h-1-bh)/2, 0)
	drawBox(scr, " "+title+" ", x, y, bw, bh)
	for i := 0; i < bh-2 && i < len(wrapped); i++ {
		printLine(scr, x+2, y+1+i, inner, wrapped[i])
	}
}

// twoColumns packs short lines side by side, column by column.
func twoColumns(lines []string, colW int) []string {
	half := (len(lines) + 1) / 2
	out := make([]string, half)
	for i := range out {
		left := lines[i]
		pad := colW - tview.TaggedStringWidth(left)
		out[i] = left + strings.Repeat(" ", max(pad, 1))
		if i+half < len(lines) {
			out[i] += lines[i+half]
		}
	}
	return out
}

// rulesText is the rules as played, in the player's language, with the
// options of this game marked.
func (u *UI) rulesText(r engine.Rules) []string {
	var out []string
	for i := 1; ; i++ {
		k := fmt.Sprintf("rules.%d", i)
		s := u.t(k)
		if s == k {
			break
		}
		out = append(out, "• "+s)
	}
	out = append(out, "", "[::u]"+u.t("rules.options")+"[::-]")
	return append(out, u.optionLines(r, "")...)
}

// drawBox draws a bordered box with its title over what is on the screen.
// A wide character just left of the box would cover its left side (tcell
// draws a two-cell cluster over the next cell), so such a cell is blanked
// first: the side stays where it is drawn in every script.
func drawBox(scr tcell.Screen, title string, x, y, w, h int) {
	for row := y; row < y+h; row++ {
		if x > 0 {
			if _, style, width := scr.Get(x-1, row); width > 1 {
				scr.SetContent(x-1, row, ' ', nil, style)
			}
		}
	}
	box := tview.NewBox().SetBorder(true).SetTitle(title)
	box.SetRect(x, y, w, h)
	box.Draw(scr)
}
