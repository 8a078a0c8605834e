package engine

import (
	"encoding/hex"
	"testing"
)

// TestHashPinned pins the state hash: peers on different machines and Go
// versions compare it, so a change here is a protocol change. The expected
// values were computed outside Go with
//
//	printf 'aeroplane/state/v1\n%s\n%s' RULES POSITION | sha256sum
func TestHashPinned(t *testing.T) {
	for _, tc := range []struct{ rules, pos, want string }{
		{"", "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -",
			"47d1f6f270839f344cf861a69d8946d782a393900980afc4868d18ee31c475ed"},
		{"flyjump=on,stack=off,overshoot=stay,takeoff=six", "L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 B 1:1 -",
			"2203f0d3ee1bfc7bd8254ba2e55093ef6ffbdab32be659beca6156f8e6eddb0f"},
		{"", "F,F,F,F/F,F,F,F/3,H,H,H/F,F,F,F - 0 GRB",
			"47710041e6d727618887d475a60f530b7688eea8664b92f3f03b4cef7d1c34df"},
	} {
		h := mustParse(t, tc.pos).Hash(mustRules(t, tc.rules))
		if got := hex.EncodeToString(h[:]); got != tc.want {
			t.Errorf("Hash(%q, %q) = %s, want %s", tc.rules, tc.pos, got, tc.want)
		}
	}
}

// TestHashSeparates checks that the hash depends on every part of the state.
func TestHashSeparates(t *testing.T) {
	base := mustParse(t, "L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 B 1:1 -")
	seen := map[[32]byte]string{}
	add := func(what string, h [32]byte) {
		if prev, ok := seen[h]; ok {
			t.Errorf("%s and %s hash alike", what, prev)
		}
		seen[h] = what
	}
	add("base", base.Hash(DefaultRules()))
	add("flyjump", base.Hash(Rules{FlyJump: true}))
	add("stack=off", base.Hash(Rules{NoStacks: true}))
	add("stay", base.Hash(Rules{StayOnOvershoot: true}))
	add("takeoff=six", base.Hash(Rules{Takeoff: TakeoffSix}))
	for _, s := range []string{
		"L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 B 0 -",
		"L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 B 2:1 -",
		"L,3,3,40/H,12,F,52/1,F,F,F/48,H,L,30 G 0 -",
		"L,3,3,41/H,12,F,52/1,F,F,F/48,H,L,30 B 1:1 -",
	} {
		add(s, mustParse(t, s).Hash(DefaultRules()))
	}
}
