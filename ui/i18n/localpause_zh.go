package i18n

// Continuing an offline game (session/localpause.go): why a saved game
// could not be taken up. Each language has its own localpause_*.go.
func init() {
	extend("zh", map[string]string{
		"err.continuegame": "无法继续对局：%v",
	})
}
