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
// and 9 (ASCII, no trailing newline).
func (p Position) Hash(rules Rules) [32]byte {
	return sha256.Sum256([]byte(hashDomain + rules.String() + "\n" + p.String()))
}
