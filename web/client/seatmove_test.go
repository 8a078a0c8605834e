package client

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"aeroplane/lockstep"
)

func seatMoveOf(t *testing.T, seat, host *Identity, counter uint64) SeatMove {
	t.Helper()
	return SeatMove{Game: lockstep.GameID{1, 2, 3}, Seat: seat.ID, Host: host.ID, Counter: counter}
}

// A seat move made by the seat's key parses back to itself; one made by
// any other key, or changed in any byte, or cut, is refused.
func TestSeatMove(t *testing.T) {
	wendy, bob, mallory := mustIdentity(t), mustIdentity(t), mustIdentity(t)
	m := seatMoveOf(t, wendy, bob, 7)
	stmt, err := wendy.SignSeatMove(m)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseSeatMove(stmt); err != nil || got != m {
		t.Fatalf("round trip of %v: %v, %v", m, got, err)
	}
	if _, err := mallory.SignSeatMove(m); err == nil {
		t.Error("a key signed another seat's move")
	}
	// Mallory's signature over Wendy's seat: the body as Wendy's, the
	// signature Mallory's own.
	body, _ := m.body()
	sig, _ := mallory.key.Sign(append([]byte(seatMoveTag), body...))
	forged := append(append(bytes.Clone(body), byte(len(sig))), sig...)
	cases := map[string][]byte{
		"forged":    forged,
		"cut":       stmt[:len(stmt)-1],
		"longer":    append(bytes.Clone(stmt), 0),
		"empty":     nil,
		"version 2": append([]byte{2}, stmt[1:]...),
		"oversized": make([]byte, MaxSeatMove+1),
	}
	for i := range stmt {
		b := bytes.Clone(stmt)
		b[i] ^= 0x40
		cases["byte "+string(rune('a'+i%26))+string(rune('0'+i/26%10))] = b
	}
	for name, b := range cases {
		if got, err := ParseSeatMove(b); !errors.Is(err, ErrBadMessage) {
			t.Errorf("%s: parsed %v, %v", name, got, err)
		}
	}
	if id, err := ParseHost(EncodeHost(bob.ID)); err != nil || id != bob.ID {
		t.Errorf("host round trip: %s, %v", id, err)
	}
	for _, bad := range [][]byte{{MsgHost}, {MsgSetup, 1}, append([]byte{MsgHost}, make([]byte, 300)...)} {
		if _, err := ParseHost(bad); !errors.Is(err, ErrBadMessage) {
			t.Errorf("ParseHost(%.8x): %v", bad, err)
		}
	}
}

// The browser's counters only go up, a clock that stands or goes back
// included: a statement it makes later always beats an earlier one.
func TestSeatMoveCounterRises(t *testing.T) {
	var c moveCounter
	at := time.UnixMilli(1000)
	prev := uint64(0)
	for _, step := range []time.Duration{0, time.Millisecond, 0, -time.Second, time.Hour, -time.Hour} {
		at = at.Add(step)
		n := c.next(at)
		if n <= prev {
			t.Fatalf("counter %d after %d (clock %v)", n, prev, at)
		}
		prev = n
	}
}

func mustIdentity(t testing.TB) *Identity {
	t.Helper()
	id, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// FuzzSeatMove: no statement panics the parser, and one that parses was
// signed by its seat and encodes its fields back to the same bytes.
func FuzzSeatMove(f *testing.F) {
	wendy, bob := mustIdentity(f), mustIdentity(f)
	stmt, err := wendy.SignSeatMove(SeatMove{Game: lockstep.GameID{9}, Seat: wendy.ID, Host: bob.ID, Counter: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(stmt)
	f.Add(stmt[:50])
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseHost(b)
		m, err := ParseSeatMove(b)
		if err != nil {
			return
		}
		body, err := m.body()
		if err != nil || !bytes.HasPrefix(b, body) {
			t.Fatalf("%x parses to %v, whose body is %x (%v)", b, m, body, err)
		}
	})
}
