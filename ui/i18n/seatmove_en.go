package i18n

// A web player whose serving laptop is gone plays on through another
// laptop of the table (session/seatmove.go): every program says so.
// Each language has its own seatmove_*.go.
func init() {
	extend("en", map[string]string{
		"note.seat.moved":     "%s plays on through %s's laptop.",
		"note.seat.movedhere": "%s plays on through this laptop.",
	})
}
