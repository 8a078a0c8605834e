package p2p

import (
	"errors"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestChatCodec(t *testing.T) {
	cases := []struct {
		name string
		body []byte
		ok   bool
	}{
		{"plain", EncodeChat(1, "hello"), true},
		{"unicode", EncodeChat(7, "起飞!"), true},
		{"max", EncodeChat(2, strings.Repeat("x", MaxChatLen)), true},
		{"too long", EncodeChat(2, strings.Repeat("x", MaxChatLen+1)), false},
		{"seq zero", EncodeChat(0, "x"), false},
		{"empty", EncodeChat(1, ""), false},
		{"escape", EncodeChat(1, "\x1b[2J"), false},
		{"bad utf8", EncodeChat(1, "\xff"), false},
		{"short", []byte{1, 2}, false},
	}
	for _, c := range cases {
		_, _, err := DecodeChat(c.body)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

// Whatever a user types, the cleaned line is short, printable and decodes.
func TestCleanChatProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		c := cleanChat(s)
		if len(c) > MaxChatLen || cleanChat(c) != c {
			t.Fatalf("cleanChat(%q) = %q", s, c)
		}
		if c != "" {
			if _, got, err := DecodeChat(EncodeChat(1, c)); err != nil || got != c {
				t.Fatalf("decode(%q) = %q, %v", c, got, err)
			}
		}
	})
}

func TestChatBucket(t *testing.T) {
	var b Bucket
	now := time.Unix(0, 0)
	for i := range chatBurst {
		if !b.take(now) {
			t.Fatalf("burst line %d refused", i)
		}
	}
	if b.take(now) {
		t.Fatal("line past the burst accepted")
	}
	if !b.take(now.Add(chatEvery)) {
		t.Fatal("line after refill refused")
	}
}

func FuzzDecodeChat(f *testing.F) {
	f.Add(EncodeChat(1, "hello"))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 1, 0x1b})
	f.Fuzz(func(t *testing.T, b []byte) {
		seq, text, err := DecodeChat(b)
		if err != nil {
			if !errors.Is(err, errChat) {
				t.Fatalf("unwrapped error %v", err)
			}
			return
		}
		if cleanChat(text) != text || seq == 0 {
			t.Fatalf("accepted %d %q", seq, text)
		}
	})
}
