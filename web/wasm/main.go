//go:build js && wasm

// Command wasm is the browser's aeroplane: package web/client compiled to
// WebAssembly and bound to JavaScript as globalThis.aeroplane. The page
// (web/static) loads it with Go's wasm_exec.js; it calls
// globalThis.aeroplaneReady() once the functions are in place.
//
// Every function takes and returns plain JavaScript values; an error is
// returned as {error: "text"}, never thrown, so the page shows it.
package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"syscall/js"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/web/client"
)

func main() {
	var id *client.Identity
	keep := client.NewKeeper(browserStore())
	keep.OnLost = func(err error) {
		js.Global().Get("console").Call("warn", err.Error())
		if f := js.Global().Get("aeroplaneNotKept"); f.Type() == js.TypeFunction {
			f.Invoke()
		}
	}
	var gameLog *client.MemLog
	var choose func(engine.Move) error // the pending choice's answer, nil when none
	var roll func() error              // the pending roll's answer, nil when none
	var sock *jsSocket                 // the game socket, once play dialled it
	var game *client.Game              // the game being played, once it runs
	var lang string                    // the page's language, for the serving program's refusals
	var suspend context.CancelFunc     // stops the game here (another tab took it), once play runs
	var run func(again bool)           // plays a game with play's callbacks (again: a rematch)
	var lastName string                // the name the person sat under
	var wsURL string                   // the game socket's address: the serving program's, or the one moveTo named
	api := map[string]any{
		// perft(rules, position, depth) → decimal count (a string: a
		// count can exceed JavaScript's exact integers).
		"perft": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 3 {
				return errValue("perft wants rules, position, depth")
			}
			n, err := client.Perft(a[0].String(), a[1].String(), a[2].Int())
			if err != nil {
				return errValue(err.Error())
			}
			return strconv.FormatUint(n, 10)
		}),
		// newKey() is this browser's key, as it kept it, or a new one
		// (crypto/rand: the browser's getRandomValues), kept in its
		// localStorage; it returns its peer ID. The key is never sent.
		"newKey": js.FuncOf(func(js.Value, []js.Value) any {
			k, err := keep.Identity()
			if k == nil {
				return errValue(err.Error())
			}
			if err != nil { // a key for this page only
				js.Global().Get("console").Call("warn", err.Error())
			}
			id = k
			return id.ID.String()
		}),
		// peerID() is the key's peer ID, "" before newKey.
		"peerID": js.FuncOf(func(js.Value, []js.Value) any {
			if id == nil {
				return ""
			}
			return id.ID.String()
		}),
		// start(colours) is the opening position of those colours ("RY").
		"start": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("start wants the colour letters")
			}
			p, err := client.StartPosition(a[0].String())
			if err != nil {
				return errValue(err.Error())
			}
			return p
		}),
		// layout() is the printed board's layout (client.Layout), as JSON.
		"layout": js.FuncOf(func(js.Value, []js.Value) any {
			data, _ := json.Marshal(client.BoardLayout()) // cells, strings and bools always marshal
			return string(data)
		}),
		// board(position) is the position laid out for drawing, as JSON.
		"board": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("board wants a position")
			}
			b, err := client.BoardOf(a[0].String())
			if err != nil {
				return errValue(err.Error())
			}
			data, _ := json.Marshal(b) // a Board of strings and ints always marshals
			return string(data)
		}),
		// play(onBoard, onEnd, onMoves) sits this page's key at the table
		// of the program that served it (its game socket, /ws) and plays
		// the game: onBoard(json) after every step, onMoves(["Y0", "Y2",
		// …]) when the player must choose (answer with choose), onEnd({history,
		// ranking, phase} or {error}) once it is over.
		// onTable(json), if given, sees the serving program's table
		// (client.Table) until the game starts: sit, ready and colour
		// are the person's answers. A socket that closes mid-game is
		// dialled again (the phone locked): the game goes on. The game
		// is kept in localStorage as it is played: a page reloaded
		// mid-game takes its seat again (client.Keeper).
		"play": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) < 3 || len(a) > 7 || id == nil {
				return errValue("play wants onBoard, onEnd, onMoves and optionally onTable, onChat, onRoll and onEvents, after newKey")
			}
			onBoard, onEnd, onMoves := a[0], a[1], a[2]
			var onTable func(client.Table)
			if len(a) >= 4 {
				cb := a[3]
				onTable = func(t client.Table) {
					data, _ := json.Marshal(t) // plain strings, ints and bools
					cb.Invoke(string(data))
				}
			}
			var onChat func(client.ChatMsg)
			if len(a) >= 5 {
				cb := a[4]
				onChat = func(m client.ChatMsg) { cb.Invoke(m.From, m.Colour, m.Text) }
			}
			// onRoll(), the sixth, is told when the person is to roll: the
			// page shows the die and answers with roll(); without it the
			// dice roll at once.
			var askRoll func(func() error)
			if len(a) >= 6 && a[5].Type() == js.TypeFunction {
				cb := a[5]
				askRoll = func(r func() error) {
					roll = r
					cb.Invoke()
				}
			}
			// onEvents(json), the seventh, sees the game's events as the
			// event log's lines (client.EventLines: [{key, colour, args}]),
			// for the page to say in its language.
			var onEvents func([]lockstep.Event)
			if len(a) == 7 && a[6].Type() == js.TypeFunction {
				cb := a[6]
				onEvents = func(evs []lockstep.Event) {
					if lines := client.EventLines(evs); len(lines) > 0 {
						data, _ := json.Marshal(lines) // plain strings
						cb.Invoke(string(data))
					}
				}
			}
			run = func(again bool) {
				if wsURL == "" { // the serving program's, until moveTo names another
					wsURL = "ws://" + js.Global().Get("location").Get("host").String() + "/ws"
				}
				cfg := client.GameConfig{Keep: keep, Lang: lang}
				if again && game != nil {
					// A rematch: the person sits at the serving program's
					// next table under the same name, asks for the same
					// colour, and waits for a game other than the last.
					cfg.Name, cfg.Past = lastName, game.GameID()
					if c := game.Colour(); c < engine.NumColours {
						cfg.Colour = string(c.Letter())
					}
					if sock != nil {
						sock.ws.Call("close")
					}
				}
				game = nil
				sock = dialSocket(wsURL)
				gameLog = client.NewMemLog()
				cfg.Log = gameLog
				cfg.OnTable, cfg.OnChat = onTable, onChat
				cfg.Redial = func(ctx context.Context) (client.Socket, error) {
					if err := ctx.Err(); err != nil {
						return nil, err // suspended: another tab has the seat now
					}
					s := dialSocket(wsURL)
					sock = s
					return s, nil
				}
				ctx, cancel := context.WithCancel(context.Background())
				suspend = cancel
				cfg.OnStart = func(g *client.Game) { game = g }
				cfg.AskRoll = askRoll
				cfg.AskMove = func(moves []engine.Move, c func(engine.Move) error) {
					names := make([]any, len(moves))
					for i, m := range moves {
						names[i] = m.String()
					}
					choose = c
					onMoves.Invoke(js.ValueOf(names))
				}
				cfg.OnReady = func(rd lockstep.Ready) {
					var rules engine.Rules
					if game != nil {
						rules = game.Rules
					}
					if b, ok := client.BoardAfter(rd, rules); ok {
						data, _ := json.Marshal(b)
						onBoard.Invoke(string(data))
					}
					if onEvents != nil {
						onEvents(rd.Events)
					}
				}
				s := sock
				go func() {
					defer cancel()
					st, err := client.Play(ctx, s, id, cfg)
					if errors.Is(err, lockstep.ErrLeft) {
						onEnd.Invoke(map[string]any{"error": err.Error(), "left": true})
						return
					}
					if err != nil {
						onEnd.Invoke(map[string]any{"error": err.Error(), "kind": endKind(err)})
						return
					}
					var rank []any
					for _, c := range st.Pos.Ranking() {
						rank = append(rank, string(c.Letter()))
					}
					onEnd.Invoke(map[string]any{"history": hex.EncodeToString(st.History[:]), "ranking": rank, "phase": st.Phase.String()})
				}()
			}
			run(false)
			return nil
		}),
		// rematch(name) plays the next game at the serving program's table,
		// once a game is over, as the terminal's r does for its player:
		// the creator reopens the table with the same seats, and this
		// page sits down under the person's name and asks for its last
		// colour (the table grants it if still free); play's callbacks
		// see it as they saw the first. name, if given, is the person's
		// (a page reloaded since it sat down knows it from its storage).
		"rematch": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) == 1 && a[0].Type() == js.TypeString && a[0].String() != "" {
				lastName = a[0].String() // a page reloaded since it sat down
			}
			if run == nil || game == nil || lastName == "" {
				return errValue("no game over to play again")
			}
			run(true)
			return true
		}),
		// setLang(code) names the page's language: the serving program
		// says its refusals of the person's commands in it.
		"setLang": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) == 1 {
				lang = a[0].String()
			}
			return nil
		}),
		// suspend() stops the game in this page without leaving it (its
		// seat waits, as for a phone locked): another tab of this browser
		// took it up from the same storage, and two nodes of one key
		// must never both sign. onEnd follows with {kind: "suspended"}.
		"suspend": js.FuncOf(func(js.Value, []js.Value) any {
			if suspend != nil {
				suspend()
			}
			if sock != nil {
				sock.ws.Call("close")
			}
			return nil
		}),
		// sit(name) sits the person at the serving program's table;
		// ready(bool) says ready or not; colour("G") asks for a colour.
		// The next onTable shows what the table made of it.
		"sit": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("sit wants the person's name")
			}
			lastName = a[0].String()
			return lobbyCmd(sock, client.LobbyCmd{T: client.CmdSit, Name: lastName, Lang: lang})
		}),
		"ready": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("ready wants true or false")
			}
			return lobbyCmd(sock, client.LobbyCmd{T: client.CmdReady, Ready: a[0].Truthy(), Lang: lang})
		}),
		"colour": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("colour wants a colour letter")
			}
			return lobbyCmd(sock, client.LobbyCmd{T: client.CmdColour, Colour: a[0].String(), Lang: lang})
		}),
		// say(text) says a chat line at the table (onChat shows it back).
		"say": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 || sock == nil {
				return errValue("say wants a line, at a table")
			}
			if err := client.SendChat(sock, a[0].String()); err != nil {
				return errValue(err.Error())
			}
			return true
		}),
		// leave() leaves the game for good: a bot flies the seat; onEnd
		// follows with {error, left: true}.
		"leave": js.FuncOf(func(js.Value, []js.Value) any {
			if game == nil {
				return errValue("no game to leave")
			}
			g := game
			go func() {
				if err := g.Leave(); err != nil {
					js.Global().Get("console").Call("warn", "leave: "+err.Error())
				}
			}()
			return true
		}),
		// roll() answers onRoll: the person tapped the die.
		"roll": js.FuncOf(func(js.Value, []js.Value) any {
			if roll == nil {
				return errValue("nothing to roll now")
			}
			r := roll
			roll = nil
			go func() {
				if err := r(); err != nil {
					js.Global().Get("console").Call("warn", "roll: "+err.Error())
				}
			}()
			return true
		}),
		// moveTo("192.168.1.20:8080") plays on through another program of
		// the table (its page's address), its serving program gone: the
		// game socket is dialled there from now on, and the seat moves
		// to that program on the key's own word (client.SeatMove).
		"moveTo": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 || game == nil {
				return errValue("moveTo wants the address of another laptop, in a game")
			}
			addr := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(a[0].String(), "http://"), "ws://"))
			addr = strings.TrimSuffix(addr, "/")
			if addr == "" || strings.ContainsAny(addr, "/?#@ ") {
				return errValue("an address is HOST:PORT, as the laptop's table shows it")
			}
			wsURL = "ws://" + addr + "/ws"
			if sock != nil {
				sock.ws.Call("close") // the link dials wsURL again
			}
			return true
		}),
		// choose(move) answers onMoves with one of its moves ("Y2").
		"choose": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 || choose == nil {
				return errValue("nothing to choose now")
			}
			m, err := engine.ParseMove(a[0].String())
			if err != nil {
				return errValue(err.Error())
			}
			c := choose
			choose = nil
			go func() {
				if err := c(m); err != nil {
					js.Global().Get("console").Call("warn", "choose: "+err.Error())
				}
			}()
			return true
		}),
		// exportLog() is the game's log, in the file format `aeroplane
		// verify` reads, base64 ("" before a game).
		"exportLog": js.FuncOf(func(js.Value, []js.Value) any {
			if gameLog == nil {
				return ""
			}
			return base64.StdEncoding.EncodeToString(gameLog.Bytes())
		}),
	}
	js.Global().Set("aeroplane", js.ValueOf(api))
	if ready := js.Global().Get("aeroplaneReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // the functions live as long as the page
}

func errValue(msg string) any { return map[string]any{"error": msg} }

// lobbyCmd sends a lobby command on the game socket: true, or {error}.
func lobbyCmd(s *jsSocket, c client.LobbyCmd) any {
	if s == nil {
		return errValue("not at a table: play first")
	}
	if err := client.SendLobby(s, c); err != nil {
		return errValue(err.Error())
	}
	return true
}

// endKind is the kind of a game's end before it was over, for the page
// to say in its language (app.js's notices).
func endKind(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "suspended"
	case errors.Is(err, client.ErrNoSeat):
		return "noseat"
	case errors.Is(err, client.ErrClosedEarly):
		return "closed"
	case errors.Is(err, client.ErrNotRestored):
		return "restore"
	}
	return "failed"
}
