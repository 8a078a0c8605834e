package i18n

// The names and refusals of web players (the browser client a program
// at the table serves): a person's name refused at the table, a command
// the page sent that the program does not know, and the mark of a web
// player in the terminal's table. Each language has its own web_*.go.
func init() {
	extend("pt", map[string]string{
		"err.personname.long":    "Um nome de no máximo %d bytes, por favor.",
		"err.personname.control": "Um nome não pode conter caracteres de controlo.",
		"err.personname.taken":   "%s já joga aqui: dê outro nome à nova pessoa.",
		"err.webcmd":             "A página enviou um comando que este programa não conhece: recarregue a página.",
		"table.phone":            "telemóvel",
	})
}
