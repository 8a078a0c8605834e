package i18n

// The page phones at the table open (the browser client the program
// serves): its line in the lobby and at the table, the caption of its
// QR code and the m key's box. Each language has its own phone_*.go.
func init() {
	extend("el", map[string]string{
		"key.phone":   "κινητό: κωδικός για σάρωση",
		"phone.line":  "Σελίδα για κινητά: %s (%s: κωδικός για σάρωση)",
		"phone.scan":  "σάρωσε για να παίξεις από κινητό",
		"phone.title": "Παίξε από κινητό",
		"phone.how":   "Σάρωσε τον κωδικό με ένα κινητό σε αυτό το δίκτυο ή γράψε τη διεύθυνση στον περιηγητή του.",
		"phone.close": "esc: κλείσιμο",
		"phone.small": "Το παράθυρο είναι πολύ μικρό για τον κωδικό: κάν' το τουλάχιστον %d×%d.",
	})
}
