// Package perf measures aeroplane's speed and footprint: the benchmarks
// behind docs/PERFORMANCE.md that need a network namespace, the real binary
// or several peers at once, and the small helpers they share (quantiles,
// /proc readings, a four-peer game in one process); binaries are built by
// internal/testkit, the one builder of the module's tests.
// Every game it measures is played by the product's loop, lockstep.Driver,
// with the log policy under test (TurnConfig.Sync).
//
// The engine's own micro-benchmarks live next to the engine
// (engine/bench_test.go, internal/arena); this package does not repeat
// them.
//
// perf must never start a libp2p host or mDNS outside a private network
// namespace (every benchmark that does calls netlab.Enter first), never
// assert a speed with a wall-clock limit in a test (speeds are reported by
// `go test -bench`, never checked by `go test`), and is imported by no
// package of the product.
package perf
