package i18n

// The page phones at the table open (the browser client the program
// serves): its line in the lobby and at the table, the caption of its
// QR code and the m key's box. Each language has its own phone_*.go.
func init() {
	extend("en", map[string]string{
		"key.phone":   "phone: code to scan",
		"phone.line":  "Page for phones: %s (%s: code to scan)",
		"phone.scan":  "scan to play from a phone",
		"phone.title": "Play from a phone",
		"phone.how":   "Scan the code with a phone on this network, or type the address into its browser.",
		"phone.close": "esc closes",
		"phone.small": "The window is too small for the code: make it at least %d×%d.",
	})
}
