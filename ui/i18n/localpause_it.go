package i18n

// Continuing an offline game (session/localpause.go): why a saved game
// could not be taken up. Each language has its own localpause_*.go.
func init() {
	extend("it", map[string]string{
		"err.continuegame": "Non è stato possibile continuare la partita: %v",
	})
}
