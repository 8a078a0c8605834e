package p2p

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/peer"
)

// MaxChatLen caps a chat line in bytes.
const MaxChatLen = 280

// Chat rate limit: a burst of chatBurst lines, then one per chatEvery.
// Receivers enforce the same limit, so a modified client cannot flood.
const (
	chatBurst = 5
	chatEvery = 500 * time.Millisecond
)

// ErrChatTooFast is returned by Say when the local player exceeds the rate.
var ErrChatTooFast = errors.New("chat: too many lines, wait a moment")

var errChat = errors.New("bad chat frame")

// ChatLine is a chat message from a player.
type ChatLine struct {
	From peer.ID
	Seq  uint64 // per sender, from 1, strictly increasing
	Text string
}

// EncodeChat encodes a chat frame body: an 8-byte sequence number and the
// UTF-8 text.
func EncodeChat(seq uint64, text string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, seq), text...)
}

// DecodeChat decodes a chat frame body, rejecting empty, oversize, invalid
// UTF-8 or control-character text.
func DecodeChat(b []byte) (uint64, string, error) {
	if len(b) < 8 {
		return 0, "", fmt.Errorf("%w: %d bytes", errChat, len(b))
	}
	seq, text := binary.BigEndian.Uint64(b), string(b[8:])
	if seq == 0 || text == "" || len(text) > MaxChatLen || !utf8.ValidString(text) || cleanChat(text) != text {
		return 0, "", fmt.Errorf("%w: seq %d, %d bytes of text", errChat, seq, len(text))
	}
	return seq, text, nil
}

// cleanChat drops control characters (they could drive a terminal) and
// cuts the text to MaxChatLen bytes on a rune boundary.
func cleanChat(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == utf8.RuneError || (!unicode.IsPrint(r) && r != ' ') {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > MaxChatLen {
			break
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// Bucket is a token bucket, the rate limit of whatever a peer may send
// (chat lines here, the lobby's joins and leaves above). The zero value is
// full.
type Bucket struct {
	tokens float64
	at     time.Time
}

func (b *Bucket) take(now time.Time) bool { return b.TakeAt(now, chatBurst, chatEvery) }

// TakeAt takes a token from a bucket of burst tokens refilled one per
// every, and reports whether there was one.
func (b *Bucket) TakeAt(now time.Time, burst float64, every time.Duration) bool {
	if b.at.IsZero() {
		b.tokens = burst
	} else {
		b.tokens = min(burst, b.tokens+float64(now.Sub(b.at))/float64(every))
	}
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Last is when the bucket was last taken from (zero if never): a bucket
// untouched for burst × every is full again, as good as a new one.
func (b *Bucket) Last() time.Time { return b.at }

// Chat sends and checks chat lines among the transport's members: lobby
// chat before the game, in-game chat during it. Lines from one sender
// arrive in order because they share that peer's single stream; the
// sequence number lets a receiver drop replays.
type Chat struct {
	t *Transport

	mu   sync.Mutex
	seq  uint64
	out  Bucket
	in   map[peer.ID]*Bucket
	last map[peer.ID]uint64
	// seats are the hosted seats this program says lines for (SayFor):
	// each its own sequence and rate, at most MaxSeatChats of them.
	seats map[peer.ID]*seatOut
}

type seatOut struct {
	seq uint64
	out Bucket
}

// MaxSeatChats bounds the hosted seats one program says chat lines for.
const MaxSeatChats = 16

// NewChat makes a chat over t.
func NewChat(t *Transport) *Chat {
	return &Chat{t: t, in: map[peer.ID]*Bucket{}, last: map[peer.ID]uint64{}, seats: map[peer.ID]*seatOut{}}
}

// SayFor sends a line of seat, one this program hosts for a key that
// lives elsewhere (a web player), to every member, as a KindSeatChat
// frame: each seat has its own sequence and the same rate limit as Say.
func (c *Chat) SayFor(seat peer.ID, text string) (ChatLine, error) {
	text = cleanChat(text)
	switch {
	case text == "":
		return ChatLine{}, errors.New("chat: nothing to say")
	case seat == "" || len(seat) > 255:
		return ChatLine{}, fmt.Errorf("chat: a seat ID of %d bytes", len(seat))
	}
	c.mu.Lock()
	so := c.seats[seat]
	if so == nil {
		if len(c.seats) >= MaxSeatChats {
			c.mu.Unlock()
			return ChatLine{}, fmt.Errorf("chat: lines of more than %d seats", MaxSeatChats)
		}
		so = &seatOut{}
		c.seats[seat] = so
	}
	if !so.out.take(time.Now()) {
		c.mu.Unlock()
		return ChatLine{}, ErrChatTooFast
	}
	so.seq++
	line := ChatLine{From: seat, Seq: so.seq, Text: text}
	c.mu.Unlock()
	body := append([]byte{byte(len(seat))}, seat...)
	if err := c.t.Broadcast(KindSeatChat, append(body, EncodeChat(line.Seq, text)...)); err != nil {
		return line, fmt.Errorf("chat: not every player got the line: %w", err)
	}
	return line, nil
}

// ReceiveSeat checks a KindSeatChat frame: hosts says whether program
// prog hosts seat; a line of a seat its sender does not host, or a
// malformed one, is a strike of the sender. The line is the seat's
// (From), rate-limited and checked for replays as the seat's own.
func (c *Chat) ReceiveSeat(in Inbound, hosts func(seat, prog peer.ID) bool) (ChatLine, error) {
	b := in.Data
	if len(b) < 1 || len(b) < 1+int(b[0]) || b[0] == 0 {
		c.t.strike(in.From, "a seat chat line cut short")
		return ChatLine{}, fmt.Errorf("%w: seat line of %d bytes", errChat, len(b))
	}
	seat := peer.ID(b[1 : 1+int(b[0])])
	if hosts == nil || !hosts(seat, in.From) {
		c.t.strike(in.From, "a chat line of a seat it does not host")
		return ChatLine{}, fmt.Errorf("%w: %s does not host seat %s", errChat, short(in.From), short(seat))
	}
	return c.receive(seat, in.From, b[1+int(b[0]):])
}

// Say sends a line to every member. The text is cleaned and cut first;
// the returned line is what the others will see.
func (c *Chat) Say(text string) (ChatLine, error) {
	text = cleanChat(text)
	if text == "" {
		return ChatLine{}, errors.New("chat: nothing to say")
	}
	c.mu.Lock()
	if !c.out.take(time.Now()) {
		c.mu.Unlock()
		return ChatLine{}, ErrChatTooFast
	}
	c.seq++
	line := ChatLine{From: c.t.Host().ID(), Seq: c.seq, Text: text}
	c.mu.Unlock()
	if err := c.t.Broadcast(KindChat, EncodeChat(line.Seq, text)); err != nil {
		return line, fmt.Errorf("chat: not every player got the line: %w", err)
	}
	return line, nil
}

// Receive checks a KindChat frame. Malformed frames and lines over the
// rate limit (Say keeps an honest sender under it) count as strikes;
// replayed lines are dropped.
func (c *Chat) Receive(in Inbound) (ChatLine, error) { return c.receive(in.From, in.From, in.Data) }

// receive checks the chat body data of speaker from, sent by the
// transport peer sender (the one a strike goes to).
func (c *Chat) receive(from, sender peer.ID, data []byte) (ChatLine, error) {
	seq, text, err := DecodeChat(data)
	if err != nil {
		c.t.strike(sender, err.Error())
		return ChatLine{}, err
	}
	c.mu.Lock()
	if seq <= c.last[from] {
		c.mu.Unlock()
		return ChatLine{}, fmt.Errorf("%w: replayed line %d from %s", errChat, seq, short(from))
	}
	b := c.in[from]
	if b == nil {
		b = &Bucket{}
		c.in[from] = b
	}
	if !b.take(time.Now()) {
		c.mu.Unlock()
		c.t.strike(sender, "chat line over the rate limit")
		return ChatLine{}, fmt.Errorf("%w: %s is chatting too fast", errChat, short(from))
	}
	c.last[from] = seq
	c.mu.Unlock()
	return ChatLine{From: from, Seq: seq, Text: text}, nil
}
