package ui

import (
	"regexp"
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

// tagLike matches what tview's printer reads as a tag or an escaped tag:
// "[" and any run of characters but brackets, optional "["s, then "]".
// tview.Escape only escapes runs of the characters a real tag uses, so a
// hostile "[0![]" would lose a bracket on screen; escaping with the
// printer's own, broader pattern prints every such run as typed.
var tagLike = regexp.MustCompile(`(\[[^\[\]]+\[*)\]`)

// escapeTags makes tview print s as typed: one more "[" before the "]" of
// every tag-like run, which the printer then removes.
func escapeTags(s string) string { return tagLike.ReplaceAllString(s, "$1[]") }

// plain is clean without the tag escaping, for text that is not printed
// through tview's tag parser.
func plain(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			r = ' '
		case r == unicode.ReplacementChar, unicode.IsControl(r), unicode.Is(unicode.Cf, r),
			unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
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
