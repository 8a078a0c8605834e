// Package e2e holds end-to-end tests of aeroplane: the real binary, built
// once per test run, played by headless peers over real libp2p on a private
// LAN that each test builds in its own network namespaces (internal/netlab).
// They show that a game survives what happens at a gathering: crashes and
// restarts, a dropped or partial network, a modified client, a full disk,
// and hundreds of games in a row. TESTING.md at the repository root lists
// every test, what it proves and its long forms.
//
// The package has no code outside its tests. Its tests must never touch the
// host's network (every peer runs inside a namespace netlab made) and must
// never weaken a check to pass.
package e2e
