package client

import (
	"bytes"
	"errors"
	"testing"
)

func TestAuthProvesTheKey(t *testing.T) {
	id, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	hello, nonce, err := Hello()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseHello(hello)
	if err != nil || got != nonce {
		t.Fatalf("ParseHello: %v %x", err, got)
	}
	auth, err := id.Auth(nonce)
	if err != nil {
		t.Fatal(err)
	}
	who, err := VerifyAuth(auth, nonce)
	if err != nil || who != id.ID {
		t.Fatalf("VerifyAuth: %v, %s; want %s", err, who, id.ID)
	}
	var other [NonceSize]byte
	if _, err := VerifyAuth(auth, other); !errors.Is(err, ErrBadMessage) {
		t.Errorf("auth replayed on another connection's nonce: %v", err)
	}
	tampered := bytes.Clone(auth)
	tampered[len(tampered)-1] ^= 1
	if _, err := VerifyAuth(tampered, nonce); !errors.Is(err, ErrBadMessage) {
		t.Errorf("tampered signature: %v", err)
	}
	for _, bad := range [][]byte{nil, {MsgAuth}, {MsgAuth, 0xff, 0xff, 1}, {MsgHello, 0, 0}, auth[:10]} {
		if _, err := VerifyAuth(bad, nonce); !errors.Is(err, ErrBadMessage) {
			t.Errorf("VerifyAuth(%x): %v", bad, err)
		}
	}
	if _, err := ParseHello(hello[:5]); !errors.Is(err, ErrBadMessage) {
		t.Errorf("short hello: %v", err)
	}
}

func TestFrameRoundTrip(t *testing.T) {
	id, _ := NewIdentity()
	for _, f := range []Frame{
		{Kind: 16, Peer: id.ID, Data: []byte("signed lockstep bytes")},
		{Kind: 17, Data: []byte("to everyone")},
		{Kind: 18, Peer: id.ID},
	} {
		msg, err := EncodeFrame(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeFrame(msg)
		if err != nil || got.Kind != f.Kind || got.Peer != f.Peer || !bytes.Equal(got.Data, f.Data) {
			t.Errorf("round trip of %+v: %+v, %v", f, got, err)
		}
	}
	if _, err := EncodeFrame(nil, Frame{Kind: 16, Data: make([]byte, MaxMessage)}); !errors.Is(err, ErrBadMessage) {
		t.Errorf("oversized frame encoded: %v", err)
	}
	for _, bad := range [][]byte{nil, {MsgFrame, 16}, {MsgFrame, 16, 5, 1}, {MsgFrame, 16, 2, 0xff, 0xff}, {MsgHello, 16, 0}, make([]byte, MaxMessage+1)} {
		if _, err := DecodeFrame(bad); !errors.Is(err, ErrBadMessage) {
			t.Errorf("DecodeFrame(%.8x): %v", bad, err)
		}
	}
}

// FuzzDecode: no message from the socket panics a decoder, and a frame
// that decodes encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	id, _ := NewIdentity()
	msg, _ := EncodeFrame(nil, Frame{Kind: 16, Peer: id.ID, Data: []byte("x")})
	f.Add(msg)
	auth, _ := id.Auth([NonceSize]byte{})
	f.Add(auth)
	f.Add([]byte{MsgHello})
	f.Add([]byte(`{"t":"colour","c":"G"}`))
	f.Add([]byte(`{"lobby":"g","players":[{"id":"x","name":"Wendy","colour":"G","ready":true,"web":true}],"free":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if c, err := ParseLobbyCmd(b); err == nil {
			again, err := EncodeLobby(c)
			if err != nil {
				t.Fatalf("%+v does not encode: %v", c, err)
			}
			fr, _ := DecodeFrame(again)
			if c2, err := ParseLobbyCmd(fr.Data); err != nil || c2 != c {
				t.Fatalf("%+v round trips to %+v (%v)", c, c2, err)
			}
		}
		ParseTable(b)
		ParseHello(b)
		VerifyAuth(b, [NonceSize]byte{})
		ParseSetup(b)
		fr, err := DecodeFrame(b)
		if err != nil {
			return
		}
		again, err := EncodeFrame(nil, fr)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%x decodes to %+v, which encodes to %x (%v)", b, fr, again, err)
		}
	})
}

func TestLobbyCmds(t *testing.T) {
	for _, good := range []LobbyCmd{{T: CmdSit, Name: "Wendy"}, {T: CmdColour, Colour: "Y"}, {T: CmdReady, Ready: true}, {T: CmdLeave}} {
		msg, err := EncodeLobby(good)
		if err != nil {
			t.Fatal(err)
		}
		f, err := DecodeFrame(msg)
		if err != nil || f.Kind != KindLobby {
			t.Fatalf("%+v: frame %+v, %v", good, f, err)
		}
		if got, err := ParseLobbyCmd(f.Data); err != nil || got != good {
			t.Errorf("%+v: parsed %+v, %v", good, got, err)
		}
	}
	for _, bad := range []string{`{`, `{"t":"hack"}`, `{"t":"colour","c":"X"}`, `{"t":"colour","c":"RB"}`, `{"t":"colour"}`, `[]`} {
		if _, err := ParseLobbyCmd([]byte(bad)); !errors.Is(err, ErrBadMessage) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, err := ParseTable([]byte(`{"players":5}`)); !errors.Is(err, ErrBadMessage) {
		t.Errorf("a table of a number: %v", err)
	}
	tb := Table{Players: []TablePlayer{{ID: "a", Name: "Ann"}, {ID: "w", Name: "Wendy", Web: true}}}
	if p, ok := tb.Seat("w"); !ok || p.Name != "Wendy" {
		t.Errorf("Seat(w) = %+v, %v", p, ok)
	}
	if _, ok := tb.Seat("z"); ok {
		t.Error("Seat of nobody found")
	}
}
