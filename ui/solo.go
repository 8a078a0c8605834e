package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"aeroplane/engine"
)

// SoloOptions configures a SoloSession.
type SoloOptions struct {
	Name     string
	Seed     uint64        // seeds the dice and the bots
	BotDelay time.Duration // pause before each bot roll, so a person can follow
	LogDir   string        // where the game log is saved; "" saves none
}

// SoloSession is a Session for one person against bots on this machine:
// no network at all, dice from engine.Rand. It lets the game be played
// offline and is the reference the networked session behaves like.
type SoloSession struct {
	mu      sync.Mutex
	opts    SoloOptions
	q       *eventQueue
	name    string
	table   *TableUpdate
	rules   engine.Rules
	pos     engine.Position
	dice    engine.Rand
	playing bool
	// waiting for this player: to roll, or to choose among outs
	wantRoll, wantChoice bool
	roll                 int
	outs                 engine.MoveList
	gen                  uint64 // bumps on every new game and on close: stale bot timers see it
	turns                uint64
	closed               bool
	logPath              string
	logFile              *os.File
}

var errOffline = errors.New("solo play has no network: start without --solo to play on the LAN")

// NewSolo starts a solo session and emits the lobby.
func NewSolo(opts SoloOptions) *SoloSession {
	s := &SoloSession{opts: opts, q: newEventQueue(), name: opts.Name, dice: engine.NewRand(opts.Seed)}
	s.emitLobby()
	return s
}

// Events implements Session.
func (s *SoloSession) Events() <-chan Event { return s.q.out }

func (s *SoloSession) emitLobby() {
	s.q.push(LobbyUpdate{Me: Peer{ID: "solo", Name: s.name}})
}

// SetName implements Session.
func (s *SoloSession) SetName(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if name == "" {
		return errors.New("a name cannot be empty")
	}
	s.name = name
	if s.table != nil {
		s.table.Seats[0].Name = name
		s.q.push(*s.table)
	}
	s.emitLobby()
	return nil
}

// CreateGame implements Session: this player sits at Red and the other
// seats get bots, one of each kind in turn.
func (s *SoloSession) CreateGame(rules engine.Rules) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.playing {
		return errors.New("a game is on: finish it first")
	}
	kinds := engine.BotKinds()
	t := &TableUpdate{GameID: "solo", Host: true, Rules: rules}
	t.Seats[0] = Seat{Kind: SeatHuman, Name: s.name, PeerID: "solo", You: true, Present: true}
	for c := 1; c < engine.NumColours; c++ {
		k := kinds[(c-1)%len(kinds)]
		t.Seats[c] = Seat{Kind: SeatBot, Name: k, Present: true, Ready: true}
	}
	s.table, s.rules = t, rules
	s.q.push(*t)
	return nil
}

// Join implements Session; solo play has nobody to join.
func (s *SoloSession) Join(string) error { return errOffline }

// Connect implements Session; solo play has nobody to connect to.
func (s *SoloSession) Connect(string) error { return errOffline }

// SetSeat implements Session.
func (s *SoloSession) SetSeat(seat engine.Colour, kind string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.table == nil:
		return errors.New("create a game first")
	case s.playing:
		return errors.New("seats are fixed once the game has started")
	case seat >= engine.NumColours:
		return fmt.Errorf("seat %d does not exist", seat)
	case s.table.Seats[seat].You:
		return errors.New("that is your own seat")
	}
	if kind == "" {
		s.table.Seats[seat] = Seat{Kind: SeatOpen}
	} else {
		if _, err := engine.NewBot(kind); err != nil {
			return err
		}
		s.table.Seats[seat] = Seat{Kind: SeatBot, Name: kind, Present: true, Ready: true}
	}
	s.q.push(*s.table)
	return nil
}

// SetRules implements RulesSetter: the table's rules, until the game starts.
func (s *SoloSession) SetRules(r engine.Rules) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.table == nil:
		return errors.New("create a game first")
	case s.playing:
		return errors.New("the rules are fixed once the game has started")
	}
	s.table.Rules, s.rules = r, r
	s.q.push(*s.table)
	return nil
}

// Start implements Session.
func (s *SoloSession) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.table == nil {
		return errors.New("create a game first")
	}
	if s.playing {
		return errors.New("the game has already started")
	}
	return s.start()
}

func (s *SoloSession) start() error {
	var colours []engine.Colour
	for c, st := range s.table.Seats {
		if st.Kind != SeatOpen {
			colours = append(colours, engine.Colour(c))
		}
	}
	pos, err := engine.NewGame(colours...)
	if err != nil {
		return fmt.Errorf("give at least one more seat to a bot: %w", err)
	}
	s.pos, s.playing = pos, true
	s.gen++
	s.table.Started = true
	s.table.Seats[0].Ready = true
	s.openLog()
	s.q.push(*s.table)
	s.q.push(GameStarted{Position: pos, Rules: s.rules})
	s.next()
	return nil
}

func (s *SoloSession) openLog() {
	s.closeLog()
	if s.opts.LogDir == "" {
		return
	}
	if err := os.MkdirAll(s.opts.LogDir, 0o755); err != nil {
		s.q.push(Notice{Text: "cannot save the game log: " + err.Error()})
		return
	}
	name := fmt.Sprintf("solo-%s-%d.log", time.Now().UTC().Format("20060102-150405"), s.gen)
	s.logPath = filepath.Join(s.opts.LogDir, name)
	f, err := os.Create(s.logPath)
	if err != nil {
		s.q.push(Notice{Text: "cannot save the game log: " + err.Error()})
		s.logPath = ""
		return
	}
	s.logFile = f
	fmt.Fprintf(f, "# aeroplane solo game log\nrules %s\nstart %s\n", s.rules, s.pos)
}

func (s *SoloSession) closeLog() {
	if s.logFile != nil {
		s.logFile.Close()
		s.logFile = nil
	}
}

// next asks for the next roll: this player's, or a bot's after a pause.
func (s *SoloSession) next() {
	if s.pos.GameOver() {
		s.playing = false
		s.closeLog()
		s.q.push(GameOver{Ranking: s.pos.Ranking(), LogPath: s.logPath})
		return
	}
	c := s.pos.ToMove()
	seat := s.table.Seats[c]
	s.q.push(DiceWaiting{ToMove: c, Waiting: []string{seat.Name}, YouRoll: seat.You})
	if seat.You {
		s.wantRoll = true
		return
	}
	gen := s.gen
	time.AfterFunc(s.opts.BotDelay, func() { s.botTurn(gen) })
}

func (s *SoloSession) botTurn(gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || gen != s.gen || !s.playing {
		return
	}
	c := s.pos.ToMove()
	bot, err := engine.NewBot(s.table.Seats[c].Name)
	if err != nil {
		s.q.push(Notice{Text: err.Error()})
		return
	}
	roll := s.dice.Roll()
	outs := s.pos.Outcomes(s.rules, roll)
	s.q.push(Rolled{Colour: c, Roll: roll, Moves: outs.Slice()})
	s.turns++
	m := bot.Choose(&s.pos, s.rules, roll, &outs, s.opts.Seed^s.turns)
	s.play(roll, m)
}

// Roll implements Session.
func (s *SoloSession) Roll() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.wantRoll {
		return errors.New("it is not your roll")
	}
	s.wantRoll = false
	c := s.pos.ToMove()
	s.roll = s.dice.Roll()
	s.outs = s.pos.Outcomes(s.rules, s.roll)
	only := s.outs.At(0)
	if s.outs.Len() == 1 && only.Kind != engine.PlaneMove {
		s.q.push(Rolled{Colour: c, Roll: s.roll, Moves: s.outs.Slice()})
		s.play(s.roll, only)
		return nil
	}
	s.wantChoice = true
	s.q.push(Rolled{Colour: c, Roll: s.roll, Moves: s.outs.Slice(), YouChoose: true})
	return nil
}

// Choose implements Session.
func (s *SoloSession) Choose(m engine.Move) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.wantChoice {
		return errors.New("there is no move to choose now")
	}
	if !s.outs.Contains(m) {
		return fmt.Errorf("%s is not one of the moves %v", m, s.outs.Slice())
	}
	s.wantChoice = false
	s.play(s.roll, m)
	return nil
}

func (s *SoloSession) play(roll int, m engine.Move) {
	before := s.pos
	after, res, err := s.pos.Play(s.rules, roll, m)
	if err != nil {
		s.q.push(Notice{Text: err.Error()})
		return
	}
	s.pos = after
	if s.logFile != nil {
		fmt.Fprintf(s.logFile, "%c %d %s\n", before.ToMove().Letter(), roll, m)
	}
	s.q.push(Moved{Before: before, After: after, Result: res})
	s.next()
}

// Chat implements Session: alone, a player only talks to the log.
func (s *SoloSession) Chat(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.q.push(ChatLine{From: s.name, Colour: engine.Red, Text: text})
	return nil
}

// Rematch implements Session.
func (s *SoloSession) Rematch() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.table == nil || s.playing {
		return errors.New("a rematch follows a finished game")
	}
	s.wantRoll, s.wantChoice = false, false
	return s.start()
}

// Close implements Session.
func (s *SoloSession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.gen++
		s.closeLog()
		s.q.close()
	}
	return nil
}
