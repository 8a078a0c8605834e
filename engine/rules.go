package engine

import "strings"

// Takeoff is the set of rolls that taxi a plane from the hangar to the launch area.
type Takeoff uint8

// The takeoff options of rules.md section 8.
const (
	TakeoffEven    Takeoff = iota // 2, 4, 6 (default)
	TakeoffSix                    // 6 only
	TakeoffFiveSix                // 5 or 6
)

var takeoffNames = []string{"even", "six", "fivesix"}

// Allows reports whether roll taxis a plane out. An unknown Takeoff value
// behaves as the default, even.
func (t Takeoff) Allows(roll int) bool {
	return uint(roll) < 8 && t.rolls()>>uint(roll)&1 != 0
}

// rolls has bit r set for each roll r that taxis a plane out.
func (t Takeoff) rolls() uint8 {
	switch t {
	case TakeoffSix:
		return 1 << 6
	case TakeoffFiveSix:
		return 1<<5 | 1<<6
	}
	return 1<<2 | 1<<4 | 1<<6
}

// Rules is a rule set: the options of rules.md section 8.
type Rules struct {
	Takeoff Takeoff
	// StayOnOvershoot makes a roll past the centre illegal instead of bouncing.
	StayOnOvershoot bool
	// NoStacks keeps own planes on one square independent (stack=off).
	NoStacks bool
	// FlyJump adds one jump 29 → 33 after a direct landing on the shortcut.
	FlyJump bool
}

// DefaultRules is takeoff=even,overshoot=bounce,stack=on,flyjump=off; the
// zero Rules value is the same.
func DefaultRules() Rules { return Rules{} }

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// String gives every key in the canonical order, so that equal rule sets
// print equal text (and hash equally).
func (r Rules) String() string {
	over := "bounce"
	if r.StayOnOvershoot {
		over = "stay"
	}
	return "takeoff=" + takeoffNames[r.Takeoff] + ",overshoot=" + over +
		",stack=" + onOff(!r.NoStacks) + ",flyjump=" + onOff(r.FlyJump)
}

// ParseRules reads `key=value,…` with keys in any order; omitted keys take
// the default and the empty string is the default rule set. An unknown key,
// an unknown value or a repeated key is an error that names it.
func ParseRules(s string) (Rules, error) {
	var r Rules
	if s == "" {
		return r, nil
	}
	seen := map[string]bool{}
	for i, item := range strings.Split(s, ",") {
		key, value, ok := strings.Cut(item, "=")
		if !ok {
			return r, errorf("rules %q: item %d %q is not key=value (keys: takeoff, overshoot, stack, flyjump)", s, i+1, item)
		}
		if seen[key] {
			return r, errorf("rules %q: key %q given twice", s, key)
		}
		seen[key] = true
		bad := func(want string) error {
			return errorf("rules %q: %s=%q is not a value of %s (want %s)", s, key, value, key, want)
		}
		switch key {
		case "takeoff":
			switch value {
			case "even":
				r.Takeoff = TakeoffEven
			case "six":
				r.Takeoff = TakeoffSix
			case "fivesix":
				r.Takeoff = TakeoffFiveSix
			default:
				return r, bad("even, six or fivesix")
			}
		case "overshoot":
			switch value {
			case "bounce":
				r.StayOnOvershoot = false
			case "stay":
				r.StayOnOvershoot = true
			default:
				return r, bad("bounce or stay")
			}
		case "stack":
			switch value {
			case "on":
				r.NoStacks = false
			case "off":
				r.NoStacks = true
			default:
				return r, bad("on or off")
			}
		case "flyjump":
			switch value {
			case "on":
				r.FlyJump = true
			case "off":
				r.FlyJump = false
			default:
				return r, bad("on or off")
			}
		default:
			return r, errorf("rules %q: unknown key %q (keys: takeoff, overshoot, stack, flyjump)", s, key)
		}
	}
	return r, nil
}
