package session

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"aeroplane/lockstep"
	"aeroplane/p2p"
)

// The watch wire (p2p.WatchProtocolID carries the bytes): a watcher asks
// a player for the records of the player's log from index From on, and
// for the chat lines from ChatFrom on; the player answers with a batch
// of at most watchBatch records (in the log file's framing, each with
// its CRC) and the chat lines it holds past ChatFrom. Both are checked
// completely before anything reads them: the other side is a stranger.
//
//	request: 'W' 1 | game [32] | from u32 | chatFrom u32 | len u8 name | len u8 say
//	answer:  'w' 1 | status u8 | total u32 | from u32 | chatNext u32 | n u8 { len u8 name | len u8 text } | records…
type watchRequest struct {
	Game     lockstep.GameID
	From     uint32 // the first record wanted (0: the setup)
	ChatFrom uint32 // the first chat line wanted
	Name     string // the watcher's name, shown to the players
	Say      string // a chat line the watcher says (empty: none)
}

// watchStatus is a player's answer to a watch request.
type watchStatus uint8

const (
	watchOK      watchStatus = iota // records follow
	watchNoGame                     // not the game this player plays now
	watchFull                       // the player serves as many watchers as it will
	watchRefused                    // this watcher was cut off (flood, lies)
	numWatchStatus
)

func (s watchStatus) String() string {
	switch s {
	case watchOK:
		return "ok"
	case watchNoGame:
		return "not playing that game"
	case watchFull:
		return "too many watchers"
	case watchRefused:
		return "cut off"
	}
	return fmt.Sprintf("status %d", uint8(s))
}

// watchChat is one chat line as a player serves it to its watchers.
type watchChat struct {
	From string // a name ("ann", or "zoe (watching)")
	Text string
}

type watchAnswer struct {
	Status   watchStatus
	Total    uint32 // records the player holds now
	From     uint32 // the index of Records[0]
	ChatNext uint32 // the ChatFrom to ask next
	Chat     []watchChat
	Records  []lockstep.Record
}

// Limits of the watch wire: a say is one chat line; an answer holds at
// most watchBatch records and maxWatchChat chat lines.
const (
	maxSay       = 200
	watchBatch   = 512
	maxWatchChat = 16
)

var errWatchWire = errors.New("bad watch message")

func encodeWatchRequest(r watchRequest) []byte {
	b := []byte{'W', 1}
	b = append(b, r.Game[:]...)
	b = binary.BigEndian.AppendUint32(b, r.From)
	b = binary.BigEndian.AppendUint32(b, r.ChatFrom)
	b = appendShort(b, r.Name)
	return appendShort(b, r.Say)
}

func decodeWatchRequest(b []byte) (watchRequest, error) {
	var r watchRequest
	if len(b) < 2+32+8 || b[0] != 'W' || b[1] != 1 {
		return r, fmt.Errorf("%w: not a watch request", errWatchWire)
	}
	copy(r.Game[:], b[2:34])
	r.From = binary.BigEndian.Uint32(b[34:])
	r.ChatFrom = binary.BigEndian.Uint32(b[38:])
	rest := b[42:]
	var err error
	if r.Name, rest, err = readShort(rest); err != nil {
		return watchRequest{}, err
	}
	if r.Say, rest, err = readShort(rest); err != nil {
		return watchRequest{}, err
	}
	switch {
	case len(rest) != 0:
		return watchRequest{}, fmt.Errorf("%w: %d bytes after the request", errWatchWire, len(rest))
	case r.Name == "" || !p2p.ValidName(r.Name):
		return watchRequest{}, fmt.Errorf("%w: watcher name %q", errWatchWire, r.Name)
	case len(r.Say) > maxSay:
		return watchRequest{}, fmt.Errorf("%w: a chat line of %d bytes", errWatchWire, len(r.Say))
	}
	return r, nil
}

func encodeWatchAnswer(a watchAnswer) []byte {
	b := []byte{'w', 1, byte(a.Status)}
	b = binary.BigEndian.AppendUint32(b, a.Total)
	b = binary.BigEndian.AppendUint32(b, a.From)
	b = binary.BigEndian.AppendUint32(b, a.ChatNext)
	b = append(b, byte(len(a.Chat)))
	for _, c := range a.Chat {
		b = appendShort(b, c.From)
		b = appendShort(b, c.Text)
	}
	return append(b, lockstep.EncodeRecords(a.Records...)...)
}

func decodeWatchAnswer(b []byte) (watchAnswer, error) {
	var a watchAnswer
	if len(b) < 3+12+1 || b[0] != 'w' || b[1] != 1 || watchStatus(b[2]) >= numWatchStatus {
		return a, fmt.Errorf("%w: not a watch answer", errWatchWire)
	}
	a.Status = watchStatus(b[2])
	a.Total = binary.BigEndian.Uint32(b[3:])
	a.From = binary.BigEndian.Uint32(b[7:])
	a.ChatNext = binary.BigEndian.Uint32(b[11:])
	n := int(b[15])
	if n > maxWatchChat {
		return watchAnswer{}, fmt.Errorf("%w: %d chat lines", errWatchWire, n)
	}
	rest := b[16:]
	for range n {
		var c watchChat
		var err error
		if c.From, rest, err = readShort(rest); err != nil {
			return watchAnswer{}, err
		}
		if c.Text, rest, err = readShort(rest); err != nil {
			return watchAnswer{}, err
		}
		a.Chat = append(a.Chat, c)
	}
	recs, err := lockstep.ParseRecords(rest)
	if err != nil {
		return watchAnswer{}, fmt.Errorf("%w: records: %w", errWatchWire, err)
	}
	switch {
	case len(recs) > watchBatch:
		return watchAnswer{}, fmt.Errorf("%w: %d records in one answer", errWatchWire, len(recs))
	case a.Status != watchOK && (len(recs) > 0 || n > 0):
		return watchAnswer{}, fmt.Errorf("%w: records with a %s", errWatchWire, a.Status)
	case uint64(a.From)+uint64(len(recs)) > uint64(a.Total):
		return watchAnswer{}, fmt.Errorf("%w: records %d to %d of %d", errWatchWire, a.From, int(a.From)+len(recs), a.Total)
	}
	a.Records = recs
	return a, nil
}

// appendShort appends s with a one-byte length, cut to 255 bytes at a
// rune boundary.
func appendShort(b []byte, s string) []byte {
	for len(s) > 255 {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	b = append(b, byte(len(s)))
	return append(b, s...)
}

func readShort(b []byte) (string, []byte, error) {
	if len(b) < 1 || len(b) < 1+int(b[0]) {
		return "", nil, fmt.Errorf("%w: cut short", errWatchWire)
	}
	s := string(b[1 : 1+int(b[0])])
	if !utf8.ValidString(s) {
		return "", nil, fmt.Errorf("%w: text is not UTF-8", errWatchWire)
	}
	return s, b[1+int(b[0]):], nil
}
