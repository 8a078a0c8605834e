package ui

import (
	"strings"
	"unicode"
)

// Limits on text that peers choose, so that nobody can push the rest of
// the screen away.
const (
	maxName = 16
	maxChat = 200
)

// clean makes text from a peer safe to print with tview: control and
// format characters (escape sequences, bidi overrides, zero-width tricks)
// go, line breaks and tabs become spaces, overlong text is cut with "…",
// and tview's colour and region tags are escaped so they print as typed.
func clean(s string, max int) string {
	return escapeTags(plain(s, max))
}

// escapeTags makes tview print s exactly as typed. tview's own escape
// ("[red[]") only works where its tag parser fails, and that parser reads
// "[:::" and anything up to the next "]" as a URL tag, so a hostile
// "[:::]" would still vanish however many "[" went before the "]".
// Instead every "[" is followed by "[:]", a tag that changes nothing: a
// "[" followed by "[" is never the start of a tag or of an escaped tag,
// so the peer's "[" prints as itself and the no-op tag prints nothing.
func escapeTags(s string) string { return strings.ReplaceAll(s, "[", "[[:]") }

// plain is clean without the tag escaping, for text that is not printed
// through tview's tag parser.
func plain(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			r = ' '
		case r == unicode.ReplacementChar, !unicode.IsGraphic(r):
			// Controls, format characters (bidi overrides, zero-width
			// joiners), private use, line and paragraph separators, and
			// code points Unicode has not assigned: terminals draw these
			// as nothing, as boxes, or as moves of the cursor.
			continue
		}
		if n == max {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}
