package i18n

// The page phones at the table open (the browser client the program
// serves): its line in the lobby and at the table, the caption of its
// QR code and the m key's box. Each language has its own phone_*.go.
func init() {
	extend("it", map[string]string{
		"key.phone":   "telefono: codice da inquadrare",
		"phone.line":  "Pagina per i telefoni: %s (%s: codice da inquadrare)",
		"phone.scan":  "inquadra per giocare dal telefono",
		"phone.title": "Gioca dal telefono",
		"phone.how":   "Inquadra il codice con un telefono su questa rete, o scrivi l'indirizzo nel suo browser.",
		"phone.close": "esc chiude",
		"phone.small": "La finestra è troppo piccola per il codice: portala almeno a %d×%d.",
	})
}
