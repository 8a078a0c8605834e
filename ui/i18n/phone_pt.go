package i18n

// The page phones at the table open (the browser client the program
// serves): its line in the lobby and at the table, the caption of its
// QR code and the m key's box. Each language has its own phone_*.go.
func init() {
	extend("pt", map[string]string{
		"key.phone":   "telemóvel: código para ler",
		"phone.line":  "Página para telemóveis: %s (%s: código para ler)",
		"phone.scan":  "lê para jogar no telemóvel",
		"phone.title": "Jogar no telemóvel",
		"phone.how":   "Lê o código com um telemóvel nesta rede, ou escreve o endereço no navegador dele.",
		"phone.close": "esc fecha",
		"phone.small": "A janela é pequena demais para o código: aumenta-a para pelo menos %d×%d.",
	})
}
