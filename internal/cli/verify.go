package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"aeroplane/engine"
	"aeroplane/lockstep"
	"aeroplane/p2p"

	"github.com/libp2p/go-libp2p/core/peer"
)

func init() {
	register(command{
		name:    "verify",
		usage:   "FILE",
		summary: "re-check a game log: signatures, reveals, rolls, moves, state hashes; print the result (exit 0: whole, finished or not; 1: damaged, or records missing)",
		run:     runVerify,
	})
}

func runVerify(e *env) error {
	fs := newFlags(e, "verify")
	pos, err := parseFlags(fs, e.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("want one game log FILE")
	}
	v, err := loadVerified(pos[0])
	if err != nil {
		return err
	}
	names := namesBeside(pos[0])
	fmt.Fprintf(e.stdout, "game %s %q: %s\n", v.GameID, v.Setup.Name, seatsLine(v.Setup, names))
	fmt.Fprintf(e.stdout, "rules %s; %d records, %d rolls\n", v.Setup.Rules, v.Records, v.Rolls)
	for _, o := range v.Seats[min(len(v.Seats), len(v.Setup.Seats)):] {
		// A newcomer took the seat (lockstep's Take): its signatures and
		// links are checked from there on like any player's.
		fmt.Fprintf(e.stdout, "seat %s: flown by %s from roll %d\n", o.Colour, playerName(o.Player, names), o.From)
	}
	for _, c := range v.Cheats {
		fmt.Fprintf(e.stdout, "evidence: %s (never applied)\n", c)
	}
	if v.Torn != nil && v.TailAltered {
		return alteredTail(pos[0], v)
	}
	if v.Torn != nil {
		fmt.Fprintf(e.stdout, "torn tail at byte %d (%s), in roll %d: what a crash in the middle of writing leaves; nothing to do: the game cuts it off when it resumes, and the %d records before it are checked\n", v.Torn.Offset, v.Torn.Reason, v.Rolls+1, v.Records)
	}
	switch v.Phase {
	case lockstep.PhaseOver:
		fmt.Fprintf(e.stdout, "ok: every signature, link, reveal, roll, move and state hash checks out\n")
		fmt.Fprintf(e.stdout, "finishing order: %s\n", rankingLine(v.Ranking))
	case lockstep.PhaseHalted:
		fmt.Fprintf(e.stdout, "ok so far: the log checks out, but the game was halted (see evidence above)\n")
	case lockstep.PhaseReveal, lockstep.PhaseMove:
		if v.Paused {
			fmt.Fprintf(e.stdout, "unfinished, paused at roll %d: the log is whole and checks out, and every player paused the game there; continue it from the lobby or with --continue\n", v.PausedAt)
			break
		}
		fallthrough
	default:
		fmt.Fprintf(e.stdout, "unfinished: the log is whole and checks out up to roll %d, where the game stops (%s, waiting for %s); a log cut there by a crash, or of a game still being played, looks the same\n",
			v.Rolls, v.Phase, idsLine(v.Awaiting, names))
	}
	fmt.Fprintf(e.stdout, "history %x\n", v.History)
	return nil
}

// loadVerified reads and verifies a log file; every failure names the file,
// and the byte offset when the log itself is bad.
func loadVerified(path string) (*lockstep.Verification, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w (give the path of a game log, as the game prints at its end)", err)
	}
	v, err := lockstep.Verify(data)
	if err != nil {
		return nil, damaged(path, data, err)
	}
	return v, nil
}

// doNotTrust is the advice for a log altered or damaged after it was
// written: no repair makes it trustworthy, another player's copy can be.
const doNotTrust = "do not resume from this copy or trust its result; " +
	"every player of the game keeps its own log (game-ID.log in their data directory): verify theirs, an honest one ends with the same history"

// damaged explains a log Verify rejected: where and in which roll it goes
// bad, and what the player can do. Records missing (lockstep.ErrLogGap)
// say so themselves.
func damaged(path string, data []byte, err error) error {
	off, roll, ok := lockstep.Damage(data, err)
	var le *lockstep.LogError
	switch {
	case !ok || errors.Is(err, lockstep.ErrLogGap):
		return fmt.Errorf("%s: %w", path, err)
	case errors.As(err, &le):
		return fmt.Errorf("%s: altered or damaged at byte %d, in roll %d: %w; bytes follow the bad record, so it is not the torn tail a crash leaves: the file was changed after it was written (by hand, a program or a failing disk), and nothing after byte %d can be checked; %s",
			path, off, roll, err, off, doNotTrust)
	default:
		return fmt.Errorf("%s: altered at byte %d, in roll %d: %w; the record passes its checksum but not the game's checks, so its bytes were changed and written back with a fresh checksum (a crash or a failing disk does neither); %s",
			path, off, roll, err, doNotTrust)
	}
}

// alteredTail is verify's answer for a log whose last record is whole and
// fails its checksum (Verification.TailAltered).
func alteredTail(path string, v *lockstep.Verification) error {
	return fmt.Errorf("%s: altered at byte %d, in roll %d: the last record is whole but fails its checksum (%s); a crash cuts a record short or leaves zeros, it never rewrites whole bytes, so the file was changed after it was written (the %d records before it check out up to roll %d, and the game, resuming, would drop it as torn); %s",
		path, v.Torn.Offset, v.Rolls+1, v.Torn.Reason, v.Records, v.Rolls, doNotTrust)
}

// seatsLine names each seat's player: by name and short ID when names
// (the names file beside the log) knows it, else by peer ID.
func seatsLine(s lockstep.Setup, names map[peer.ID]string) string {
	var parts []string
	for _, st := range s.Seats {
		who := "bot " + st.Bot
		if st.Player != "" {
			who = playerName(st.Player, names)
		}
		parts = append(parts, fmt.Sprintf("%s=%s", st.Colour, who))
	}
	return strings.Join(parts, " ")
}

func rankingLine(r []engine.Colour) string {
	var parts []string
	for i, c := range r {
		parts = append(parts, fmt.Sprintf("%d. %s", i+1, c))
	}
	return strings.Join(parts, ", ")
}

func idsLine(ids []peer.ID, names map[peer.ID]string) string {
	if len(ids) == 0 {
		return "nobody"
	}
	var parts []string
	for _, id := range ids {
		parts = append(parts, playerName(id, names))
	}
	return strings.Join(parts, ", ")
}

// playerName is "Mei (…J7d7)" for a peer names knows, else its peer ID.
func playerName(id peer.ID, names map[peer.ID]string) string {
	if n := p2p.CleanName(names[id]); n != "" {
		return fmt.Sprintf("%s (…%s)", n, lockstep.ShortID(id))
	}
	return id.String()
}
