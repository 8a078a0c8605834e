package ui

import (
	"regexp"
	"strings"
	"testing"

	"aeroplane/engine"
	"aeroplane/ui/i18n"
)

// asciiBesideCJK is an ASCII punctuation mark next to a Chinese character
// (spaces between allowed): zh writes "，" "。" "：" "（" "）" "！" "？".
var asciiBesideCJK = regexp.MustCompile(`[\p{Han}\x{3000}-\x{303f}\x{ff00}-\x{ffef}]\s*[,.:;!?()]|[,.:;!?()]\s*[\p{Han}\x{3000}-\x{303f}\x{ff00}-\x{ffef}]`)

// tviewTag is a colour tag of the event log ("[red::b]", "[-::-]").
var tviewTag = regexp.MustCompile(`\[[a-z-]*:[a-z-]*:[a-z-]*\]`)

// The zh catalogue uses full-width punctuation throughout.
func TestZhCatalogueFullWidthPunctuation(t *testing.T) {
	for k, v := range i18n.Messages("zh") {
		if m := asciiBesideCJK.FindString(v); m != "" {
			t.Errorf("zh %q = %q: ASCII punctuation %q beside Chinese", k, v, m)
		}
	}
}

// A move of many parts (a bounce, a jump, a flight, captures, another
// roll or the colour finished) reads in zh with full-width joiners, and
// in every language without the English ones where the language has its
// own.
func TestEventJoinersTranslated(t *testing.T) {
	before := mustPos(t, "13,13,L,H/5,20,H,F/H,H,H,52/50,H,H,H R 0 -")
	res := engine.Result{Move: engine.Move{Colour: engine.Red, Plane: 0}, Roll: 6, Group: 1, From: 13, Landed: 17,
		Bounced: true, JumpTo: 21, FlyTo: -1, FlyJumpTo: -1, NCaptures: 2, ExtraRoll: true,
		Captures: [3 * engine.PlanesPerColour]engine.Capture{{Colour: engine.Blue, Plane: 1}, {Colour: engine.Green, Plane: 0}}}
	finished := res
	finished.ExtraRoll, finished.ColourFinished = false, true
	for _, r := range []engine.Result{res, finished} {
		u := New(newFake(), Options{Lang: "zh"})
		got := tviewTag.ReplaceAllString(u.describe(&before, r), "")
		if m := asciiBesideCJK.FindString(got); m != "" || !strings.Contains(got, "，") || !strings.Contains(got, "。") || !strings.Contains(got, "、") {
			t.Errorf("zh event %q: ASCII %q, want the joiners ，。、", got, m)
		}
		u = New(newFake(), Options{Lang: "hi"})
		if got := u.describe(&before, r); !strings.Contains(got, "। ") {
			t.Errorf("hi event %q lacks its full stop", got)
		}
	}
}
