// Package cli is the aeroplane command line: it parses arguments, picks a
// command and wires the packages together. It holds no game rules (engine),
// no protocol (lockstep), no networking (p2p) and no drawing (ui) of its own.
package cli
