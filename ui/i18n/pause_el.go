package i18n

// Pausing a game for everyone (ui/pausegame.go): the p key's question,
// its answers and the event lines. Each language has its own pause_*.go.
func init() {
	extend("el", map[string]string{
		"key.pausegame":        "παύση για όλους",
		"key.pauseall":         "παύση για όλους",
		"key.playon":           "συνέχεια παιχνιδιού",
		"pause.title":          "Παύση του παιχνιδιού;",
		"pause.text":           "Παύση του παιχνιδιού για όλους; Ρωτάμε και τους άλλους. Όταν όλοι οι παίκτες κάνουν παύση, το παιχνίδι σταματά και το λόμπι το προσφέρει για συνέχεια άλλη μέρα.",
		"log.pausesent":        "ζήτησες παύση: περιμένουμε να κάνουν παύση και οι άλλοι",
		"log.pauseasked":       "ο/η %s ζητά παύση — πάτα p για παύση κι εσύ",
		"log.pausedtoo":        "ο/η %s έκανε κι αυτός/ή παύση",
		"log.paused":           "το παιχνίδι είναι σε παύση στη ζαριά %d: συνέχισέ το από το λόμπι άλλη μέρα",
		"err.pausegame":        "Το παιχνίδι δεν μπήκε σε παύση: %v",
		"log.playon":           "συνεχίζεις το παιχνίδι: το αίτημα παύσης σου αποσύρθηκε",
		"log.pauselifted":      "ο/η %s συνεχίζει το παιχνίδι",
		"key.liftpause":        "ανάκληση της παύσης",
		"note.continuewait":    "Αναμονή να συνεχίσει και ο/η %s το παιχνίδι (το πολύ %s).",
		"note.continuewithout": "%s δεν συνέχισε το παιχνίδι μέσα σε %s: το παιχνίδι προχωρά, με bots στις θέσεις τους μέχρι να επιστρέψουν.",
	})
}
