// Package testkit is test support shared by the module's tests: one golden
// file helper under one -update flag, one builder of the module's binaries,
// one set of deterministic keys, one switch for the long forms.
//
// testkit is for tests only. It must never be imported by non-test code:
// importing it registers its -update flag in the importing program, and its
// keys are public. deps_test.go checks that no product package depends on it.
//
// Files:
//   - golden.go: Golden and the -update flag.
//   - keys.go: Key and ID, deterministic Ed25519 keys and peer IDs.
//   - binary.go: BuildBinary (one go build), Binary and BuildOnce (once per
//     test binary, cached), RemoveBinaries.
//   - long.go: Long (AEROPLANE_LONG=1: the long forms) and Rows (a test
//     table without its long rows in the default run).
package testkit
