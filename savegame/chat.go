package savegame

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"aeroplane/lockstep"
)

// The chat of a game (game-ID.chat) is kept beside its log, since the log
// holds only the protocol: a resumed game shows the chat as it was. One
// line per chat line, "colour<TAB>from<TAB>text" (colour a seat's number,
// or - for someone without a seat). Chat is hostile text and comes as
// often as the players like, so the file is bounded: a line longer than
// maxChatRecord bytes is cut, and when an append would take the file past
// maxChatFile bytes it is rewritten with its last keepChatLines lines
// first. Reading takes at most maxChatFile bytes and returns the last
// maxChatLines valid lines; a damaged line is skipped, so a damaged file
// costs chat, never the game. Chat is not worth an fsync: a crash may
// lose its last lines.
const (
	maxChatFile   = 64 << 10
	maxChatLines  = 200 // what the chat panel keeps
	keepChatLines = maxChatLines / 2
	maxChatFrom   = maxSavedName
	maxChatText   = 512
	maxChatRecord = 8 + maxChatFrom + maxChatText
)

// ChatLine is one saved line of a game's chat.
type ChatLine struct {
	Colour int // the speaker's seat (engine.Colour), or -1 for none
	From   string
	Text   string
}

func (d *Dir) chatPath(gid lockstep.GameID) string { return d.name(gid, ".chat") }

// AppendChat adds a line to game gid's chat, cleaned (control characters
// become spaces) and cut to the caps.
func (d *Dir) AppendChat(gid lockstep.GameID, l ChatLine) error {
	rec := chatRecord(l)
	path := d.chatPath(gid)
	if fi, err := os.Stat(path); err == nil && fi.Size()+int64(len(rec)) > maxChatFile {
		if err := d.trimChat(gid); err != nil {
			return fmt.Errorf("saving the chat of game %s: %w", gid, err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("saving the chat of game %s: %w", gid, err)
	}
	_, err = f.Write(rec)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("saving the chat of game %s: %w", gid, err)
	}
	return nil
}

// trimChat rewrites the chat file with its last keepChatLines lines.
func (d *Dir) trimChat(gid lockstep.GameID) error {
	lines := d.Chat(gid)
	if len(lines) > keepChatLines {
		lines = lines[len(lines)-keepChatLines:]
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.Write(chatRecord(l))
	}
	return replaceFile(d.chatPath(gid), b.Bytes(), 0o600)
}

// Chat is game gid's saved chat, oldest first (empty if none).
func (d *Dir) Chat(gid lockstep.GameID) []ChatLine {
	f, err := os.Open(d.chatPath(gid))
	if err != nil {
		return nil
	}
	defer f.Close()
	return ParseChat(io.LimitReader(f, maxChatFile))
}

// ParseChat reads a chat file: its last maxChatLines valid lines.
func ParseChat(r io.Reader) []ChatLine {
	var out []ChatLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 512), maxChatFile)
	for sc.Scan() {
		l, ok := parseChatLine(sc.Text())
		if !ok {
			continue
		}
		if out = append(out, l); len(out) > 2*maxChatLines {
			out = append(out[:0], out[len(out)-maxChatLines:]...)
		}
	}
	if len(out) > maxChatLines {
		out = out[len(out)-maxChatLines:]
	}
	return out
}

func parseChatLine(s string) (ChatLine, bool) {
	f := strings.SplitN(s, "\t", 3)
	if len(f) != 3 {
		return ChatLine{}, false
	}
	c := -1
	if f[0] != "-" {
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 0 || n > 3 || f[0] != strconv.Itoa(n) {
			return ChatLine{}, false
		}
		c = n
	}
	l := ChatLine{Colour: c, From: f[1], Text: f[2]}
	if !validChat(l.From, maxChatFrom) || !validChat(l.Text, maxChatText) {
		return ChatLine{}, false
	}
	return l, true
}

// chatRecord is l as one line of the file.
func chatRecord(l ChatLine) []byte {
	c := "-"
	if l.Colour >= 0 && l.Colour <= 3 {
		c = strconv.Itoa(l.Colour)
	}
	from, text := cleanChat(l.From, maxChatFrom), cleanChat(l.Text, maxChatText)
	if from == "" {
		from = "?"
	}
	if text == "" {
		text = " "
	}
	return []byte(c + "\t" + from + "\t" + text + "\n")
}

// cleanChat is s valid UTF-8 with control characters as spaces, cut to
// max bytes on a rune boundary.
func cleanChat(s string, max int) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "?") {
		if !unicode.IsPrint(r) {
			r = ' '
		}
		if b.Len()+utf8.RuneLen(r) > max {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

func validChat(s string, max int) bool {
	return s != "" && cleanChat(s, max) == s
}
