package i18n

// The names and refusals of web players (the browser client a program
// at the table serves): a person's name refused at the table, a command
// the page sent that the program does not know, and the mark of a web
// player in the terminal's table. Each language has its own web_*.go.
func init() {
	extend("it", map[string]string{
		"err.personname.long":    "Un nome di al massimo %d byte, per favore.",
		"err.personname.control": "Un nome non può contenere caratteri di controllo.",
		"err.personname.taken":   "%s gioca già qui: dai un altro nome alla nuova persona.",
		"err.webcmd":             "La pagina ha mandato un comando che questo programma non conosce: ricarica la pagina.",
		"table.phone":            "telefono",
	})
}
