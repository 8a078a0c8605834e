package i18n

// Several people of one program at a LAN table (session/netpeople.go).
// Each language has its own hotlan_*.go.
func init() {
	extend("it", map[string]string{
		"note.personnotseated": "%s non ha potuto sedersi a questo tavolo: %v",
		"note.autorollperson":  "Il dado di %s è stato tirato per lui/lei: gli altri non possono aspettare oltre.",
	})
}
