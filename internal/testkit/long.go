package testkit

import "os"

// LongEnv is the one switch for the long forms of the module's tests:
// AEROPLANE_LONG=1 go test ./... runs every table row and every repeat
// the default run leaves out (more kill points, more games, the second
// and third variant of a scenario the default run already plays once).
//
// An environment variable rather than a flag: `go test ./... -long`
// hands -long to every test binary, and those that do not import testkit
// exit with "flag provided but not defined"; netlab re-runs a test inside
// its namespace without the outer binary's flags, and the environment
// reaches that inner run (and go test's cache keys on it). Packages keep
// their own long flags (lockstep's -sim.games, e2e's -e2e.soak) for
// finer control.
const LongEnv = "AEROPLANE_LONG"

// Long reports whether the run asks for the long forms (AEROPLANE_LONG=1).
// A test chooses by it what it plays (which rows, how many games), never
// whether it runs: the default run has no skipped test.
func Long() bool { return os.Getenv(LongEnv) == "1" }

// Rows returns the rows of a test table the run plays: all of them with
// AEROPLANE_LONG=1, else those isLong (asked by index, so that a table of
// an unnamed struct type can say it) does not mark. The rows left out
// repeat a path another row already takes, so the default run drops them
// from the table (no skipped subtest) and still plays every scenario.
func Rows[T any](rows []T, isLong func(i int) bool) []T {
	if Long() {
		return rows
	}
	var short []T
	for i, r := range rows {
		if !isLong(i) {
			short = append(short, r)
		}
	}
	return short
}
