package i18n

// A late arrival taking a seat in a running game: the session's notes as
// it asks for the seat, the players' note when it is taken, and the
// lobby's key for it. Each language has its own takeseat_*.go.
func init() {
	extend("en", map[string]string{
		"note.seat.looking": "Looking for a free seat in the running game %q on the LAN.",
		"note.seat.asking":  "Asking for the %s seat of %q.",
		"note.seat.taken":   "%s takes %s from roll %d.",
		"note.seat.refused": "The %s seat was not given from roll %d: asking again.",
		"err.takewhich":     "Which game? Name the running game to take a seat in.",
		"err.nofreeseat":    "No seat of %q is free: people fly them all.",
		"err.seatnotfree":   "The %s seat of %q is not free: a person flies it.",
		"err.noadmit":       "No player of %q lets a newcomer in now (%s); try again in a minute.",
		"key.takeseat":      "take a seat",
		"prompt.takeseat":   "Take a seat in game number (and colour):",
		"err.seatlost":      "The %s seat of %q was taken by %s from roll %d: no seat for you.",
		"err.takestalled":   "The game %q made no progress here for %d s before you had a seat: try again.",
		"err.takenumber":    "No running game %q to take a seat in: type its number from the list, and a colour if you like (2 blue).",
	})
}
