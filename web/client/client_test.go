package client

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// TestPerftSharedVectors runs the shared perft vectors through the
// client's entry point; run under GOOS=js GOARCH=wasm (.ci/run) it is the
// browser's engine that is checked.
func TestPerftSharedVectors(t *testing.T) {
	f, err := os.Open("../../engine/testdata/perft.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, ran := 0, 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("perft.tsv:%d: %d columns, want 4", n, len(cols))
		}
		depth, err1 := strconv.Atoi(cols[2])
		want, err2 := strconv.ParseUint(cols[3], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("perft.tsv:%d: bad depth or count", n)
		}
		got, err := Perft(cols[0], cols[1], depth)
		if err != nil {
			t.Fatalf("perft.tsv:%d: %v", n, err)
		}
		if got != want {
			t.Errorf("perft.tsv:%d: perft(%s, %d) = %d, want %d", n, cols[1], depth, got, want)
		}
		ran++
	}
	if ran == 0 {
		t.Fatal("no vector ran")
	}
}

func TestPerftRejects(t *testing.T) {
	start, err := StartPosition("RBYG")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rules, pos string
		depth      int
	}{
		{"", "nonsense", 1},
		{"nosuchrule=1", start, 1},
		{"", start, -1},
		{"", start, MaxPerftDepth + 1},
	} {
		if _, err := Perft(tc.rules, tc.pos, tc.depth); err == nil {
			t.Errorf("Perft(%q, %q, %d): no error", tc.rules, tc.pos, tc.depth)
		}
	}
}

func TestIdentitySignsVerifiably(t *testing.T) {
	a, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == b.ID {
		t.Fatal("two identities have the same peer ID: the random source is not random")
	}
	pub, err := a.ID.ExtractPublicKey()
	if err != nil {
		t.Fatal(err)
	}
	if pub.Type() != crypto.Ed25519 {
		t.Fatalf("key type %v, want Ed25519", pub.Type())
	}
	sig, err := a.Sign([]byte("frame"))
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := pub.Verify([]byte("frame"), sig); err != nil || !ok {
		t.Fatalf("signature does not verify: %v", err)
	}
	if ok, _ := pub.Verify([]byte("other"), sig); ok {
		t.Fatal("signature verifies other data")
	}
}

func TestBoardOf(t *testing.T) {
	start, err := StartPosition("RY")
	if err != nil {
		t.Fatal(err)
	}
	b, err := BoardOf(start)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Track) != 52 || b.Track[0] != 'Y' && b.Track[0] != 'R' && b.Track[0] != 'B' && b.Track[0] != 'G' {
		t.Fatalf("track %q", b.Track)
	}
	if len(b.Planes) != 8 {
		t.Fatalf("%d planes, want 8", len(b.Planes))
	}
	for _, p := range b.Planes {
		if p.Place != "H" || p.Square != -1 {
			t.Errorf("plane %+v at the start, want in the hangar", p)
		}
	}
	if _, err := BoardOf("nonsense"); err == nil {
		t.Error("BoardOf(nonsense): no error")
	}
	if _, err := StartPosition("RX"); err == nil {
		t.Error("StartPosition(RX): no error")
	}
}
