package ui

import (
	"strings"

	"github.com/rivo/uniseg"
)

// legend is what every mark on the board means (board.go's notation),
// for the help overlay: the mark as drawn, and its text's catalog key.
var legend = []struct{ mark, key string }{
	{"R0", "legend.plane"},
	{"3R", "legend.stack"},
	{"R  G", "legend.corner"},
	{"L", "legend.launch"},
	{"..", "legend.out"},
	{"R0✓", "legend.home"},
	{"**", "legend.centre"},
	{"13", "legend.squares"},
	{"--- :", "legend.shortcut"},
	{"(R0)", "legend.from"},
	{pathDot, "legend.step"},
	{pathDot + "13" + pathDot, "legend.stop"},
	{"[17]", "legend.target"},
}

// legendKeys are the catalog keys the legend uses (for the catalog tests).
var legendKeys = func() []string {
	out := []string{"legend.title"}
	for _, l := range legend {
		out = append(out, l.key)
	}
	return out
}()

func (u *UI) legendLines() []string {
	out := []string{"[::u]" + u.t("legend.title") + "[::-]"}
	for _, l := range legend {
		pad := strings.Repeat(" ", max(5-uniseg.StringWidth(l.mark), 0))
		out = append(out, "[::b]"+escapeTags(l.mark)+"[::-]"+pad+" "+u.t(l.key))
	}
	return out
}
