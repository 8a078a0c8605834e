package i18n

// The names and refusals of web players (the browser client a program
// at the table serves): a person's name refused at the table, a command
// the page sent that the program does not know, and the mark of a web
// player in the terminal's table. Each language has its own web_*.go.
func init() {
	extend("ru", map[string]string{
		"err.personname.long":    "Имя не длиннее %d байт, пожалуйста.",
		"err.personname.control": "В имени не может быть управляющих символов.",
		"err.personname.taken":   "%s уже играет здесь: дайте новому человеку другое имя.",
		"err.webcmd":             "Страница прислала команду, которой эта программа не знает: перезагрузите страницу.",
		"table.phone":            "телефон",
	})
}
