package i18n

// Watching a running game, and continuing a saved one another day: the
// lobby's lists of both, the watcher's panel, the leave question's pause,
// and the session's notes about them (ui.Msg keys from package session).
// Each language has its own watch_*.go.
func init() {
	extend("el", map[string]string{
		"lobby.running":      "Παιχνίδια σε εξέλιξη (παρακολούθησε ένα)",
		"lobby.runninggame":  "%s — ζαριά %d, %d παρακολουθούν",
		"lobby.runninglead":  "%s — ζαριά %d, προηγείται ο %s, %d παρακολουθούν",
		"watch.ok":           "παρακολούθηση — επαληθεύτηκαν: %d εγγραφές, ζαριά %d (από %s)",
		"watch.bad":          "το αρχείο ενός παίκτη απέτυχε στους ελέγχους: %s",
		"watch.paused":       "οι παίκτες έβαλαν το παιχνίδι σε παύση στη ζαριά %d — επαληθεύτηκαν: %d εγγραφές",
		"log.watchpaused":    "οι παίκτες έβαλαν το παιχνίδι σε παύση στη ζαριά %d: ό,τι παρακολούθησες αποθηκεύτηκε, επαληθευμένο ως εκεί",
		"watch.end":          "παρακολούθηση ως το τέλος — επαληθεύτηκαν: %d εγγραφές",
		"watch.by":           "σε παρακολουθούν: %s",
		"lobby.continue":     "Αποθηκευμένα παιχνίδια για συνέχεια",
		"lobby.continuegame": "συνέχεια: %s — ζαριά %d, αποθηκεύτηκε %s (%s)",
		"weekday.0":          "Κυριακή",
		"weekday.1":          "Δευτέρα",
		"weekday.2":          "Τρίτη",
		"weekday.3":          "Τετάρτη",
		"weekday.4":          "Πέμπτη",
		"weekday.5":          "Παρασκευή",
		"weekday.6":          "Σάββατο",
		"key.pause":          "παύση: συνέχεια άλλη μέρα",

		"note.watch.looking": "Αναζήτηση του παιχνιδιού σε εξέλιξη %q στο τοπικό δίκτυο.",
		"note.watch.badlog":  "Το αρχείο καταγραφής του/της %s απέτυχε στους ελέγχους (%s): η παρακολούθηση συνεχίζεται από άλλον παίκτη.",
		"note.watch.joined":  "Ο/Η %s παρακολουθεί το παιχνίδι.",
		"note.continuing":    "Συνέχεια του %q μετά από %d ζαριές, αποθηκεύτηκε %s.",
		"err.watchwhich":     "Ποιο παιχνίδι; Δώστε το όνομα του λόμπι που θέλετε να παρακολουθήσετε.",
		"err.nopause":        "Δεν παίζεται κανένα παιχνίδι για να μπει σε παύση.",
		"err.nocontinue":     "Δεν υπάρχει αποθηκευμένο παιχνίδι %q για συνέχεια: τελείωσε, το αφήσατε ή είναι άλλου παίκτη.",
	})
}
