package i18n

// Continuing an offline game (session/localpause.go): why a saved game
// could not be taken up. Each language has its own localpause_*.go.
func init() {
	extend("el", map[string]string{
		"err.continuegame": "Το παιχνίδι δεν μπόρεσε να συνεχιστεί: %v",
	})
}
