package web

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"aeroplane/web/client"
)

// TestWasmBindingsInNode runs the built client in Node through the
// functions the page calls: a perft vector counted by the wasm engine, an
// error as a value, a key made in the client (its ID only comes out; the
// one kept is given again), and the board of a new game.
func TestWasmBindingsInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to run the wasm client (apt-get install nodejs): %v", err)
	}
	_, dir := builtClient(t)
	pos := "H,H,H,H/-/H,H,H,H/- R 0 -" // perft.tsv's first vectors
	out, err := exec.Command(node, "testdata/node_smoke.js", dir, "", pos, "3").CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got struct {
		Perft                      string
		BadPerft                   struct{ Error string }
		Before, Key1, PeerID, Key2 string
		Board                      client.Board
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Perft != "283" {
		t.Errorf("perft depth 3 = %q, want 283 (perft.tsv)", got.Perft)
	}
	if !strings.Contains(got.BadPerft.Error, "position") {
		t.Errorf("bad position answered %+v, want an error value", got.BadPerft)
	}
	if got.Before != "" || !strings.HasPrefix(got.Key1, "12D3KooW") || got.PeerID != got.Key1 || got.Key2 != got.Key1 {
		t.Errorf("keys: before %q, first %q, peerID %q, second %q: want none, then an Ed25519 peer ID, the same, then the same kept one", got.Before, got.Key1, got.PeerID, got.Key2)
	}
	if len(got.Board.Planes) != 8 || len(got.Board.Track) != 52 {
		t.Errorf("board %+v, want 8 planes on a 52-square track", got.Board)
	}
}
