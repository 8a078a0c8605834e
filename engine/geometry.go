package engine

// Board geometry of rules.md section 2. Route indices are per colour; the
// track's absolute squares are shared by everybody.
const (
	TrackSquares = 52 // the ring of shared squares, absolute numbers 0..51
	TrackEnd     = 49 // last route index on the shared track (the turn square)
	TurnSquare   = 49 // own colour, but landing there never jumps
	HomeFirst    = 50 // H1: first square of the private home column
	HomeLast     = 54 // H5
	Centre       = 55 // reaching it finishes the plane
	ShortcutFrom = 17 // own-colour square joined to ShortcutTo by the dashed line
	ShortcutTo   = 29
	JumpLength   = 4
	CrossingHome = 52 // the opposite colour's H3, crossed by the shortcut line
	FlyJumpTo    = ShortcutTo + JumpLength
	RouteSteps   = 56 // from the launch area to the centre
)

// Absolute is the track square (0..51) of route index i (0..49) of colour c.
func Absolute(c Colour, i int) int { return (13*int(c) + i) % TrackSquares }

// SquareColour is the colour painted on absolute track square a.
func SquareColour(a int) Colour { return Colour((a + 3) % NumColours) }

// RouteIndex is colour c's route index of absolute square a (0..51); indices
// 50 and 51 name track squares that colour c never visits.
func RouteIndex(c Colour, a int) int {
	return ((a-13*int(c))%TrackSquares + TrackSquares) % TrackSquares
}

// IsJumpSquare reports whether landing on route index i jumps +4: an own
// colour square (i ≡ 1 mod 4) other than the shortcut square and the turn square.
func IsJumpSquare(i int) bool {
	return i >= 0 && i < TurnSquare && i%4 == 1 && i != ShortcutFrom
}

// onTrack reports whether a place is a shared track square, where landing
// has effects.
func onTrack(p Place) bool { return p >= 0 && p <= TrackEnd }
