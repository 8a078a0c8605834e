package i18n

// The page phones at the table open (the browser client the program
// serves): its line in the lobby and at the table, the caption of its
// QR code and the m key's box. Each language has its own phone_*.go.
func init() {
	extend("ru", map[string]string{
		"key.phone":   "телефон: код для сканирования",
		"phone.line":  "Страница для телефонов: %s (%s: код для сканирования)",
		"phone.scan":  "отсканируйте, чтобы играть с телефона",
		"phone.title": "Играть с телефона",
		"phone.how":   "Отсканируйте код телефоном в этой сети или введите адрес в его браузере.",
		"phone.close": "esc закрывает",
		"phone.small": "Окно слишком мало для кода: сделайте его не меньше %d×%d.",
	})
}
