// Package arena plays many bot games and collects how each seat placed, for
// `aeroplane arena`, `aeroplane watch` and the bot-strength numbers of the
// performance report.
//
// Seats are fixed by colour in the order the caller lists the bots: with
// two bots Red and Yellow (opposite colours, as rules.md suggests), with
// three Red, Blue and Yellow, with four Red, Blue, Yellow and Green. Seats
// do not rotate between games; Red always moves first, so compare bots in
// both seat orders when the first-move advantage matters.
//
// Every game is reproducible on its own: its dice and its bots' seeds come
// from engine.Rand seeded by the run's seed and the game's number only, so
// results do not depend on how many workers play the games or in which
// order they finish.
//
// The package must never read the clock, touch the network or the
// terminal, or use unseeded randomness; floats appear only in the
// statistics it reports, never in a game.
package arena
