package i18n

// The page phones at the table open (the browser client the program
// serves): its line in the lobby and at the table, the caption of its
// QR code and the m key's box. Each language has its own phone_*.go.
func init() {
	extend("hi", map[string]string{
		"key.phone":   "फ़ोन: स्कैन करने का कोड",
		"phone.line":  "फ़ोन के लिए पेज: %s (%s: स्कैन करने का कोड)",
		"phone.scan":  "फ़ोन से खेलने के लिए स्कैन करें",
		"phone.title": "फ़ोन से खेलें",
		"phone.how":   "इसी नेटवर्क पर किसी फ़ोन से कोड स्कैन करें, या उसके ब्राउज़र में यह पता लिखें।",
		"phone.close": "esc बंद करता है",
		"phone.small": "कोड के लिए विंडो बहुत छोटी है: इसे कम से कम %d×%d करें।",
	})
}
