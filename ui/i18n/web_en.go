package i18n

// The names and refusals of web players (the browser client a program
// at the table serves): a person's name refused at the table, a command
// the page sent that the program does not know, and the mark of a web
// player in the terminal's table. Each language has its own web_*.go.
func init() {
	extend("en", map[string]string{
		"err.personname.long":    "A name of at most %d bytes, please.",
		"err.personname.control": "A name cannot hold control characters.",
		"err.personname.taken":   "%s already plays here: give the new person another name.",
		"err.webcmd":             "The page sent a command this program does not know: reload the page.",
		"table.phone":            "phone",
	})
}
