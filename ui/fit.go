package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// The smallest screen the game is drawn on: the compact board is 52
// columns and 13 rows; beside it the players, the turn with up to four
// moves and the chat need 26 columns, and under it one notice line and
// a few event lines need 5 rows, above up to two key lines. Below this
// the game shows the too-small screen instead of a layout that cuts
// moves or the board. The lobby and the table are text and wrap to any
// size.
const (
	minWidth  = 78
	minHeight = 22
)

// maxKeyLines is the most rows the bottom key lines take; what does not
// fit is still listed by help (? is always the first key).
const maxKeyLines = 3

// packLines puts the parts side by side, two spaces apart, on as few
// lines of w cells as it can without splitting a part; a part wider than
// w gets a line of its own (and is cut there). spare parts are added only
// where they fit on the lines the others took.
func packLines(parts, spare []string, w int) []string {
	lines, _ := packPlaced(parts, spare, w)
	return lines
}

// placed is where packPlaced put a part: its line and first cell.
type placed struct {
	text    string
	line, x int
	width   int
}

// packPlaced is packLines, also saying where each part went (spare parts
// left out are not listed), so that a click on a part finds it.
func packPlaced(parts, spare []string, w int) ([]string, []placed) {
	var lines []string
	var at []placed
	cur, curW := "", 0
	for _, p := range parts {
		pw := tview.TaggedStringWidth(p)
		switch {
		case curW == 0:
			cur, curW = p, pw
		case curW+2+pw <= w:
			cur, curW = cur+"  "+p, curW+2+pw
		default:
			lines = append(lines, cur)
			cur, curW = p, pw
		}
		at = append(at, placed{p, len(lines), curW - pw, pw})
	}
	for _, p := range spare {
		if pw := tview.TaggedStringWidth(p); curW > 0 && curW+2+pw <= w {
			cur, curW = cur+"  "+p, curW+2+pw
			at = append(at, placed{p, len(lines), curW - pw, pw})
		}
	}
	if curW > 0 {
		lines = append(lines, cur)
	}
	return lines, at
}

// wrapTagged word-wraps a tagged line to w cells; style holds tags that
// open every wrapped line (tview forgets styles between lines), and later
// lines are indented by indent cells so they read as one item.
func wrapTagged(text, style string, w, indent int) []string {
	if w <= indent {
		return []string{style + text}
	}
	first := tview.WordWrap(text, w)
	if len(first) <= 1 {
		return []string{style + text}
	}
	out := []string{style + first[0]}
	rest := strings.TrimLeft(strings.Join(first[1:], ""), " ")
	pad := strings.Repeat(" ", indent)
	for _, l := range tview.WordWrap(rest, w-indent) {
		out = append(out, pad+style+l)
	}
	return out
}

// wrapAll word-wraps every line to w cells (an empty line stays one); a
// line in yourTurnStyle keeps it on every wrapped line.
func wrapAll(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		if l == "" {
			out = append(out, "")
			continue
		}
		if rest, ok := strings.CutPrefix(l, yourTurnStyle); ok {
			out = append(out, wrapTagged(rest, yourTurnStyle, w, 0)...)
			continue
		}
		out = append(out, tview.WordWrap(l, w)...)
	}
	return out
}

// tooSmall reports whether the game cannot be drawn whole in w×h.
func tooSmall(w, h int) bool { return w < minWidth || h < minHeight }

// drawTooSmall says, in the middle of the body, how big the window must
// be; the keys stay on the bottom lines.
func (u *UI) drawTooSmall(scr tcell.Screen, w, h int) {
	lines := wrapAll([]string{
		"[yellow::b]" + u.t("small.title") + "[-::-]",
		u.t("small.need", minWidth, minHeight, w, h+u.keyRows),
	}, max(w-2, 1))
	y := max((h-len(lines))/2, 0)
	for i, l := range lines {
		if y+i >= h {
			break
		}
		x := max((w-tview.TaggedStringWidth(l))/2, 0)
		printLine(scr, x, y+i, w-x, l)
	}
}
