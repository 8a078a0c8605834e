package client

import (
	"encoding/json"
	"fmt"
	"strings"
)

// KindLobby is p2p's lobby frame kind: between a browser and the program
// that serves it, a frame of this kind carries a lobby command (browser →
// server) or the table as it is now (server → browser), in JSON.
const KindLobby byte = 18

// Lobby commands a browser sends: sit at the serving program's table
// under the person's name, pick a colour, say ready (or not), leave.
const (
	CmdSit    = "sit"
	CmdColour = "colour"
	CmdReady  = "ready"
	CmdLeave  = "leave"
)

// LobbyCmd is one lobby command of a browser player.
type LobbyCmd struct {
	T      string `json:"t"`
	Name   string `json:"n,omitempty"` // sit
	Colour string `json:"c,omitempty"` // colour: R, B, Y or G
	Ready  bool   `json:"r,omitempty"` // ready
	// Lang is the page's language (ui/i18n's codes): the serving
	// program says its refusals in it (Table.Error).
	Lang string `json:"l,omitempty"`
}

// TablePlayer is one seat holder of a table as the browser shows it.
type TablePlayer struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Colour string `json:"colour"`
	Ready  bool   `json:"ready"`
	Web    bool   `json:"web,omitempty"` // a web player (served by a program at the table)
}

// Table is the serving program's table as its lobby last said, or why
// the browser's last command was refused.
type Table struct {
	Lobby   string        `json:"lobby"`
	Players []TablePlayer `json:"players"`
	Bots    []string      `json:"bots,omitempty"` // colour letters
	Free    int           `json:"free"`
	Version uint64        `json:"version,omitempty"`
	// Error is why the browser's last command was refused, in the
	// language its commands name (LobbyCmd.Lang; English without), and
	// ErrorKey the refusal's kind (ui/i18n's catalogue key).
	Error    string `json:"error,omitempty"`
	ErrorKey string `json:"errorKey,omitempty"`
}

// Seat is the browser's own seat in the table, if it has one.
func (t Table) Seat(id string) (TablePlayer, bool) {
	for _, p := range t.Players {
		if p.ID == id {
			return p, true
		}
	}
	return TablePlayer{}, false
}

// EncodeLobby is the frame message of a lobby command or table (any
// JSON value of this file's types).
func EncodeLobby(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return EncodeFrame(nil, Frame{Kind: KindLobby, Data: data})
}

// ParseLobbyCmd reads a browser's lobby command.
func ParseLobbyCmd(data []byte) (LobbyCmd, error) {
	var c LobbyCmd
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%w: lobby command: %v", ErrBadMessage, err)
	}
	switch c.T {
	case CmdSit, CmdReady, CmdLeave:
	case CmdColour:
		if len(c.Colour) != 1 || !strings.Contains("RBYG", c.Colour) {
			return c, fmt.Errorf("%w: colour %q", ErrBadMessage, c.Colour)
		}
	default:
		return c, fmt.Errorf("%w: lobby command %q", ErrBadMessage, c.T)
	}
	return c, nil
}

// ParseTable reads the server's table.
func ParseTable(data []byte) (Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return t, fmt.Errorf("%w: table: %v", ErrBadMessage, err)
	}
	return t, nil
}

// SendLobby sends a lobby command on s.
func SendLobby(s Socket, c LobbyCmd) error {
	msg, err := EncodeLobby(c)
	if err != nil {
		return err
	}
	return s.Send(msg)
}

// ChatMsg is a chat line as the serving program hands it to the browser
// (a KindChat frame whose peer is the speaker): the speaker's name and
// colour letter ("" without a seat) as that program knows them.
type ChatMsg struct {
	From   string `json:"from"`
	Colour string `json:"colour,omitempty"`
	Text   string `json:"text"`
}

// ParseChat reads a chat line from the serving program.
func ParseChat(data []byte) (ChatMsg, error) {
	var m ChatMsg
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%w: chat line: %v", ErrBadMessage, err)
	}
	return m, nil
}

// SendChat says a line at the table (the serving program says it for
// this browser's seat, and cleans and rate-limits it as any player's).
func SendChat(s Socket, text string) error {
	msg, err := EncodeFrame(nil, Frame{Kind: KindChat, Data: []byte(text)})
	if err != nil {
		return err
	}
	return s.Send(msg)
}
