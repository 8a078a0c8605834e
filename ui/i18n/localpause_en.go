package i18n

// Continuing an offline game (session/localpause.go): why a saved game
// could not be taken up. Each language has its own localpause_*.go.
func init() {
	extend("en", map[string]string{
		"err.continuegame": "The game could not be continued: %v",
	})
}
