package p2p

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestFrameRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		f    Frame
	}{
		{"empty game", Frame{Kind: KindGame}},
		{"ping", Frame{Kind: KindPing, Body: []byte{0, 0, 0, 0, 0, 0, 0, 7}}},
		{"chat", Frame{Kind: KindChat, Body: []byte("hello")}},
		{"max", Frame{Kind: KindLobby, Body: bytes.Repeat([]byte{0xAB}, MaxFrame-1)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			enc, err := AppendFrame(nil, c.f)
			if err != nil {
				t.Fatal(err)
			}
			got, rest, err := DecodeFrame(enc)
			if err != nil || len(rest) != 0 || got.Kind != c.f.Kind || !bytes.Equal(got.Body, c.f.Body) {
				t.Fatalf("DecodeFrame = %v %d %v, want %v", got.Kind, len(rest), err, c.f.Kind)
			}
			fr := NewFrameReader(bytes.NewReader(enc))
			got, err = fr.Read()
			if err != nil || got.Kind != c.f.Kind || !bytes.Equal(got.Body, c.f.Body) {
				t.Fatalf("FrameReader = %v %v", got.Kind, err)
			}
			if _, err := fr.Read(); err != io.EOF {
				t.Fatalf("after last frame: %v, want EOF", err)
			}
		})
	}
}

func TestFrameErrors(t *testing.T) {
	cases := []struct {
		name  string
		input []byte
		want  error
	}{
		{"too large", []byte{0, 1, 0, 1, 16}, ErrFrameTooLarge},
		{"huge", []byte{0xff, 0xff, 0xff, 0xff}, ErrFrameTooLarge},
		{"empty", []byte{0, 0, 0, 0}, ErrFrameEmpty},
		{"unknown kind", []byte{0, 0, 0, 1, 99}, ErrUnknownKind},
		{"short header", []byte{0, 0}, io.ErrUnexpectedEOF},
		{"short body", []byte{0, 0, 0, 5, 16, 1}, io.ErrUnexpectedEOF},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, _, err := DecodeFrame(c.input); !errors.Is(err, c.want) {
				t.Errorf("DecodeFrame: %v, want %v", err, c.want)
			}
			if _, err := NewFrameReader(bytes.NewReader(c.input)).Read(); !errors.Is(err, c.want) {
				t.Errorf("FrameReader: %v, want %v", err, c.want)
			}
		})
	}
	if _, err := AppendFrame(nil, Frame{Kind: KindGame, Body: make([]byte, MaxFrame)}); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("AppendFrame oversize: %v", err)
	}
	if _, err := AppendFrame(nil, Frame{Kind: 0}); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("AppendFrame kind 0: %v", err)
	}
}

// An unknown kind skips exactly one frame: the next one still decodes.
func TestFrameReaderSkipsUnknownKind(t *testing.T) {
	in := []byte{0, 0, 0, 3, 99, 1, 2}
	in, _ = AppendFrame(in, Frame{Kind: KindChat, Body: []byte("x")})
	fr := NewFrameReader(bytes.NewReader(in))
	if _, err := fr.Read(); !errors.Is(err, ErrUnknownKind) {
		t.Fatalf("first: %v", err)
	}
	f, err := fr.Read()
	if err != nil || f.Kind != KindChat || string(f.Body) != "x" {
		t.Fatalf("second: %v %v", f, err)
	}
}

func FuzzDecodeFrame(f *testing.F) {
	seed, _ := AppendFrame(nil, Frame{Kind: KindGame, Body: []byte("seed")})
	f.Add(seed)
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, rest, err := DecodeFrame(b)
		// The streaming reader must agree with the buffer decoder.
		sf, serr := NewFrameReader(bytes.NewReader(b)).Read()
		if (err == nil) != (serr == nil) {
			t.Fatalf("DecodeFrame err %v, FrameReader err %v", err, serr)
		}
		if err != nil {
			return
		}
		if sf.Kind != fr.Kind || !bytes.Equal(sf.Body, fr.Body) {
			t.Fatal("readers disagree")
		}
		enc, err := AppendFrame(nil, fr)
		if err != nil {
			t.Fatalf("re-encoding a decoded frame: %v", err)
		}
		if !bytes.Equal(enc, b[:len(b)-len(rest)]) {
			t.Fatal("re-encoding differs from the input")
		}
	})
}
