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
	var gameLog *client.MemLog
	var choose func(engine.Move) error // the pending choice's answer, nil when none
	var sock *jsSocket                 // the game socket, once play dialled it
	var game *client.Game              // the game being played, once it runs
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
		// newKey() makes this page's key (crypto/rand: the browser's
		// getRandomValues) and returns its peer ID; the key stays here.
		"newKey": js.FuncOf(func(js.Value, []js.Value) any {
			k, err := client.NewIdentity()
			if err != nil {
				return errValue(err.Error())
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
		// dialled again (the phone locked): the game goes on.
		"play": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) < 3 || len(a) > 5 || id == nil {
				return errValue("play wants onBoard, onEnd, onMoves and optionally onTable and onChat, after newKey")
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
			if len(a) == 5 {
				cb := a[4]
				onChat = func(m client.ChatMsg) { cb.Invoke(m.From, m.Colour, m.Text) }
			}
			loc := js.Global().Get("location")
			wsURL = "ws://" + loc.Get("host").String() + "/ws"
			sock = dialSocket(wsURL)
			gameLog = client.NewMemLog()
			lg := gameLog
			redial := func(ctx context.Context) (client.Socket, error) {
				s := dialSocket(wsURL)
				sock = s
				return s, nil
			}
			go func() {
				st, err := client.Play(context.Background(), sock, id, client.GameConfig{Log: lg, OnTable: onTable, OnChat: onChat, Redial: redial, OnStart: func(g *client.Game) { game = g }, AskMove: func(moves []engine.Move, c func(engine.Move) error) {
					names := make([]any, len(moves))
					for i, m := range moves {
						names[i] = m.String()
					}
					choose = c
					onMoves.Invoke(js.ValueOf(names))
				}, OnReady: func(rd lockstep.Ready) {
					b, err := client.BoardOf(rd.State.Pos.String())
					if err == nil {
						data, _ := json.Marshal(b)
						onBoard.Invoke(string(data))
					}
				}})
				if errors.Is(err, lockstep.ErrLeft) {
					onEnd.Invoke(map[string]any{"error": err.Error(), "left": true})
					return
				}
				if err != nil {
					onEnd.Invoke(errValue(err.Error()))
					return
				}
				var rank []any
				for _, c := range st.Pos.Ranking() {
					rank = append(rank, string(c.Letter()))
				}
				onEnd.Invoke(map[string]any{"history": hex.EncodeToString(st.History[:]), "ranking": rank, "phase": st.Phase.String()})
			}()
			return nil
		}),
		// sit(name) sits the person at the serving program's table;
		// ready(bool) says ready or not; colour("G") asks for a colour.
		// The next onTable shows what the table made of it.
		"sit": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("sit wants the person's name")
			}
			return lobbyCmd(sock, client.LobbyCmd{T: client.CmdSit, Name: a[0].String()})
		}),
		"ready": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("ready wants true or false")
			}
			return lobbyCmd(sock, client.LobbyCmd{T: client.CmdReady, Ready: a[0].Truthy()})
		}),
		"colour": js.FuncOf(func(_ js.Value, a []js.Value) any {
			if len(a) != 1 {
				return errValue("colour wants a colour letter")
			}
			return lobbyCmd(sock, client.LobbyCmd{T: client.CmdColour, Colour: a[0].String()})
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
