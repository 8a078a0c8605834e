package ui

import (
	"fmt"
	"strings"

	"aeroplane/engine"
)

// colourName is the colour in the player's language.
func (u *UI) colourName(c engine.Colour) string {
	if c >= engine.NumColours {
		return "-"
	}
	return u.t(fmt.Sprintf("colour.%d", c))
}

// tagged is a colour name printed in its colour, with its letter for
// screens without colour.
func (u *UI) tagged(c engine.Colour) string {
	if c >= engine.NumColours {
		return "-"
	}
	return fmt.Sprintf("[%s::b]%s[-::-]", tagColour[c], u.colourName(c))
}

var tagColour = [engine.NumColours]string{"red", "blue", "olive", "green"}

// planeName is "Red 2", or "Red 0+2" for a stack.
func (u *UI) planeName(c engine.Colour, group uint8) string {
	var nums []string
	for j := 0; j < engine.PlanesPerColour; j++ {
		if group&(1<<j) != 0 {
			nums = append(nums, fmt.Sprint(j))
		}
	}
	return u.tagged(c) + " " + strings.Join(nums, "+")
}

// placeName names place p of colour c's route in words, a square by the
// board's name for it (engine.Place.Name), the same for every colour.
func (u *UI) placeName(c engine.Colour, p engine.Place) string {
	switch {
	case p == engine.Hangar:
		return u.t("place.hangar")
	case p == engine.Launch:
		return u.t("place.launch")
	case p == engine.Finished:
		return u.t("place.centre")
	case p >= engine.HomeFirst:
		return u.t("place.home", p.Name(c))
	}
	return u.t("place.square", p.Name(c))
}

// describe tells a move in words for the event log.
func (u *UI) describe(before *engine.Position, res engine.Result) string {
	c := before.ToMove()
	switch res.Move.Kind {
	case engine.Pass:
		return u.t("log.pass", u.tagged(c), res.Roll)
	case engine.Penalty:
		return u.t("log.penalty", u.tagged(c), u.planeName(c, res.Penalised))
	}
	var parts []string
	who := u.planeName(c, res.Group)
	if res.From == engine.Hangar {
		parts = append(parts, u.t("log.taxi", who, res.Roll))
	} else {
		parts = append(parts, u.t("log.move", who, res.Roll, u.placeName(c, res.Landed)))
	}
	if res.Bounced {
		parts = append(parts, u.t("log.bounce"))
	}
	if res.JumpTo >= 0 {
		parts = append(parts, u.t("log.jump", u.placeName(c, res.JumpTo)))
	}
	if res.FlyTo >= 0 {
		parts = append(parts, u.t("log.fly", u.placeName(c, res.FlyTo)))
	}
	if res.FlyJumpTo >= 0 {
		parts = append(parts, u.t("log.jump", u.placeName(c, res.FlyJumpTo)))
	}
	if res.NCaptures > 0 {
		var caps []string
		for _, k := range res.Captures[:res.NCaptures] {
			caps = append(caps, u.planeName(k.Colour, 1<<k.Plane))
		}
		parts = append(parts, u.t("log.capture", strings.Join(caps, u.t("log.list"))))
	}
	// The joiners come from the catalogue: zh writes "，" and "。".
	s := strings.Join(parts, u.t("log.sep"))
	if res.ColourFinished {
		s += u.t("log.stop") + u.t("log.finished", u.tagged(c))
	} else if res.ExtraRoll {
		s += u.t("log.stop") + u.t("log.again")
	}
	return s
}
