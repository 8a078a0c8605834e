package engine

import "crypto/sha256"

// hashDomain separates state hashes from every other SHA-256 the project makes.
const hashDomain = "aeroplane/state/v1\n"

// Hash is the state hash that peers compare after every turn. It is
// SHA-256 over exactly these bytes, so that it is the same on every
// machine, OS and Go version:
//
//	"aeroplane/state/v1\n" + rules.String() + "\n" + p.String()
//
// where both strings are the canonical notations of rules.md sections 8
// and 9 (ASCII, no trailing newline). For example the default rules and
// the four-player start hash to
// 47d1f6f270839f344cf861a69d8946d782a393900980afc4868d18ee31c475ed;
// TestHashPinned (hash_test.go) pins this and other values, computed
// outside Go with printf and sha256sum. Changing what is hashed is a
// protocol change: bump the v1 in the domain string.
func (p Position) Hash(rules Rules) [32]byte {
	return sha256.Sum256([]byte(hashDomain + rules.String() + "\n" + p.String()))
}
