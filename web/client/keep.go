package client

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"aeroplane/lockstep"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Store is the browser's storage that outlives the page: localStorage
// under web/wasm (synchronous: a value set is kept when Set returns, so a
// record is kept before the messages that follow it are sent, as
// lockstep's log wants), a map in tests. Values are strings.
type Store interface {
	Get(key string) (string, bool)
	Set(key, value string) error
	Remove(key string)
}

// MapStore is a Store in memory (tests, and a page whose storage is off).
type MapStore struct {
	mu sync.Mutex
	m  map[string]string
}

// Get implements Store.
func (s *MapStore) Get(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok
}

// Set implements Store.
func (s *MapStore) Set(key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]string{}
	}
	s.m[key] = value
	return nil
}

// Remove implements Store.
func (s *MapStore) Remove(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
}

// Len is how many keys the store holds.
func (s *MapStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// The keys a Keeper uses. The page's own (name, language) are its.
const (
	keyKey     = "aeroplane.key"     // the browser's private key, base64
	keyEntropy = "aeroplane.entropy" // the running game's chain secret, base64
	keyLogPart = "aeroplane.log."    // + 0, 1, …: the running game's log, base64 parts
)

// The running game's log is kept in parts of LogPartBytes, so that a
// write rewrites only the last part (a whole log rewritten per record
// would cost the square of its length). At most MaxKeptLog bytes are
// kept (a whole game is a few hundred KiB; localStorage holds about 5 MB
// of text per origin); past that the game is not kept any more, and a
// reload starts afresh.
const (
	LogPartBytes = 32 << 10
	MaxKeptLog   = 2 << 20
	maxLogParts  = MaxKeptLog / LogPartBytes
)

// ErrNotKept is wrapped when the game cannot be kept in the browser's
// storage (full, or too long): it goes on, but a reload loses the seat.
var ErrNotKept = errors.New("the game is not kept in the browser any more")

// A Keeper keeps, in the browser's Store, what the page needs to take
// its seat again after a reload or after the browser discarded the tab:
// the browser's key, its dice chain secret for the running game, and the
// game's log (every record the node accepted, its own messages too). The
// key never leaves the device: it is stored there, never sent. Only one
// game is kept, and a finished one is forgotten.
type Keeper struct {
	// OnLost, if set, is told once the game can no longer be kept (the
	// storage full or refused): it goes on, but a reload loses the seat.
	OnLost func(error)
	st     Store
	mu     sync.Mutex
	// the log being kept: the last part's bytes, its index, the total
	part    []byte
	parts   int
	total   int
	keeping bool
}

// NewKeeper keeps in st.
func NewKeeper(st Store) *Keeper { return &Keeper{st: st} }

// Identity is the browser's saved key, or a fresh one (then saved).
// A saved key that does not read is replaced (it seats nobody then:
// a fresh key is a new person to the table).
func (k *Keeper) Identity() (*Identity, error) {
	if s, ok := k.st.Get(keyKey); ok {
		if id, err := parseIdentity(s); err == nil {
			return id, nil
		}
		k.Forget() // a game kept for another key cannot be resumed
	}
	id, err := NewIdentity()
	if err != nil {
		return nil, err
	}
	raw, err := crypto.MarshalPrivateKey(id.key)
	if err != nil {
		return nil, fmt.Errorf("saving the browser's key: %w", err)
	}
	if err := k.st.Set(keyKey, base64.StdEncoding.EncodeToString(raw)); err != nil {
		return id, fmt.Errorf("saving the browser's key: %w (a reload will make a new one)", err)
	}
	return id, nil
}

func parseIdentity(s string) (*Identity, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	key, err := crypto.UnmarshalPrivateKey(raw)
	if err != nil {
		return nil, err
	}
	if key.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("a %v key, want Ed25519", key.Type())
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return &Identity{key: key, ID: id}, nil
}

// KeptGame is a game the Keeper holds: its chain secret and its log.
type KeptGame struct {
	Setup   lockstep.Setup
	Entropy [32]byte
	Log     []byte // the log file's bytes, header included
	Records []lockstep.Record
}

// Game is the kept game, if one is kept and reads whole. A kept log
// with a torn last record gives the records before it (lockstep.Restore
// recovers a lost tail as after a crash).
func (k *Keeper) Game() (KeptGame, bool) {
	var g KeptGame
	s, ok := k.st.Get(keyEntropy)
	if !ok {
		return g, false
	}
	ent, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(ent) != len(g.Entropy) {
		return g, false
	}
	copy(g.Entropy[:], ent)
	for i := range maxLogParts {
		s, ok := k.st.Get(keyLogPart + strconv.Itoa(i))
		if !ok {
			break
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return g, false
		}
		g.Log = append(g.Log, b...)
	}
	recs, err := lockstep.ParseLog(g.Log)
	if err != nil && !errors.Is(err, lockstep.ErrTornTail) || len(recs) == 0 || recs[0].Type != lockstep.RecordSetup {
		return g, false
	}
	if err != nil { // cut the torn tail off the bytes too
		var le *lockstep.LogError
		if !errors.As(err, &le) || le.Offset > int64(len(g.Log)) {
			return g, false
		}
		g.Log = g.Log[:le.Offset]
	}
	if g.Setup, err = lockstep.DecodeSetup(recs[0].Data); err != nil {
		return g, false
	}
	g.Records = recs
	return g, true
}

// Forget drops the kept game (over, left, or another game begun).
func (k *Keeper) Forget() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.forget()
}

func (k *Keeper) forget() {
	k.st.Remove(keyEntropy)
	for i := range maxLogParts {
		k.st.Remove(keyLogPart + strconv.Itoa(i))
	}
	k.part, k.parts, k.total, k.keeping = nil, 0, 0, false
}

// begin starts keeping a new game: its chain secret now, before its node
// signs anything, then its log as it is written.
func (k *Keeper) begin(entropy [32]byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.forget()
	if err := k.st.Set(keyEntropy, base64.StdEncoding.EncodeToString(entropy[:])); err != nil {
		k.forget()
		return fmt.Errorf("%w: %v", ErrNotKept, err)
	}
	k.keeping = true
	return k.append(lockstep.LogHeader())
}

// resume goes on keeping the kept game, whose log is g.Log.
func (k *Keeper) resume(g KeptGame) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keeping = true
	k.total = len(g.Log)
	k.parts = max(0, (len(g.Log)-1)/LogPartBytes)
	k.part = append([]byte(nil), g.Log[k.parts*LogPartBytes:]...)
	// Parts past the log's end (a torn tail cut off) are rewritten as
	// the log grows; the last one now holds the cut bytes.
	if err := k.st.Set(keyLogPart+strconv.Itoa(k.parts), base64.StdEncoding.EncodeToString(k.part)); err != nil {
		k.forget()
	}
	for i := k.parts + 1; i < maxLogParts; i++ {
		k.st.Remove(keyLogPart + strconv.Itoa(i))
	}
}

// append adds b to the kept log; k.mu is held. On failure the game is
// forgotten: a reload then starts afresh rather than from a log that
// lacks what was sent since.
func (k *Keeper) append(b []byte) error {
	if !k.keeping {
		return nil
	}
	if k.total+len(b) > MaxKeptLog {
		k.forget()
		return fmt.Errorf("%w: its log passed %d bytes", ErrNotKept, MaxKeptLog)
	}
	for len(b) > 0 {
		if len(k.part) == LogPartBytes {
			k.parts++
			k.part = nil
		}
		n := min(len(b), LogPartBytes-len(k.part))
		k.part = append(k.part, b[:n]...)
		b = b[n:]
		k.total += n
		if err := k.st.Set(keyLogPart+strconv.Itoa(k.parts), base64.StdEncoding.EncodeToString(k.part)); err != nil {
			k.forget()
			return fmt.Errorf("%w: %v", ErrNotKept, err)
		}
	}
	return nil
}

// keptLog is the game's log, in the page's memory and in the Keeper:
// a record is in the browser's storage when Write returns, before the
// driver sends the messages of its Ready.
type keptLog struct {
	lockstep.Log
	k      *Keeper
	onLost func(error)
}

func (l keptLog) Write(recs []lockstep.Record) error {
	if err := l.Log.Write(recs); err != nil {
		return err
	}
	l.k.mu.Lock()
	err := l.k.append(lockstep.EncodeRecords(recs...))
	l.k.mu.Unlock()
	if err != nil && l.onLost != nil {
		l.onLost(err) // the game goes on, not kept
	}
	return nil
}
