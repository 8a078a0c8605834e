package session

import (
	"bytes"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

func TestSeatFrameRoundTrip(t *testing.T) {
	for _, tc := range []struct{ from, to peer.ID }{{"bob", ""}, {"bob", "cat"}} {
		b, err := encodeSeatFrame(tc.from, tc.to, []byte("msg"))
		if err != nil {
			t.Fatal(err)
		}
		from, to, data, err := decodeSeatFrame(b)
		if err != nil || from != tc.from || to != tc.to || string(data) != "msg" {
			t.Errorf("%+v: got %q %q %q %v", tc, from, to, data, err)
		}
	}
	for _, bad := range [][]byte{nil, {0, 0, 'x'}, {3, 'a'}, {1, 'a', 0}, {1, 'a', 5, 'b'}} {
		if _, _, _, err := decodeSeatFrame(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
	if _, err := encodeSeatFrame("", "x", nil); err == nil {
		t.Error("a seat frame without a sender was made")
	}
}

// FuzzDecodeSeatFrame: any bytes from a peer decode or fail cleanly, and
// what decodes encodes back to the same bytes.
func FuzzDecodeSeatFrame(f *testing.F) {
	f.Add([]byte{3, 'b', 'o', 'b', 0, 1, 2})
	f.Add([]byte{1, 'a', 1, 'b', 9})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		from, to, data, err := decodeSeatFrame(b)
		if err != nil {
			return
		}
		again, err := encodeSeatFrame(from, to, data)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%q decoded to %q %q %q and encodes to %q (%v)", b, from, to, data, again, err)
		}
	})
}
