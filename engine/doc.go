// Package engine plays the rules of Aeroplane Chess (飞行棋) exactly as
// ../shared/rules.md writes them: board geometry, rule options, positions in
// the rule book's notation, legal moves, applying a move, a pass or the
// third-six penalty, turn passing, the finishing order, perft, a portable
// state hash, a text drawing of the board, and deterministic bots.
//
// The engine is pure and deterministic. It must never do IO, read a clock,
// start goroutines, use global or unseeded randomness, depend on map
// iteration order, or use floating point in game logic. Every peer of a game
// runs it in lockstep, so the same values in must give the same values out on
// every machine, OS and Go version.
//
// Where rules.md is silent the engine does what a player of the printed board
// expects; each such choice is written next to the code that makes it and is
// collected in docs/RULES.md.
package engine
