package i18n

// The names and refusals of web players (the browser client a program
// at the table serves): a person's name refused at the table, a command
// the page sent that the program does not know, and the mark of a web
// player in the terminal's table. Each language has its own web_*.go.
func init() {
	extend("el", map[string]string{
		"err.personname.long":    "Ένα όνομα το πολύ %d byte, παρακαλώ.",
		"err.personname.control": "Ένα όνομα δεν μπορεί να έχει χαρακτήρες ελέγχου.",
		"err.personname.taken":   "Ο/Η %s παίζει ήδη εδώ: δώστε στο νέο πρόσωπο άλλο όνομα.",
		"err.webcmd":             "Η σελίδα έστειλε εντολή που αυτό το πρόγραμμα δεν γνωρίζει: φορτώστε ξανά τη σελίδα.",
		"table.phone":            "κινητό",
	})
}
