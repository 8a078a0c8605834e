package i18n

// A late arrival taking a seat in a running game: the session's notes as
// it asks for the seat, the players' note when it is taken, and the
// lobby's key for it. Each language has its own takeseat_*.go.
func init() {
	extend("el", map[string]string{
		"note.seat.looking": "Αναζήτηση ελεύθερης θέσης στο παιχνίδι %q που παίζεται στο LAN.",
		"note.seat.asking":  "Ζητείται η θέση %s του %q.",
		"note.seat.taken":   "Ο/Η %s παίρνει τη θέση %s από τη ζαριά %d.",
		"note.seat.refused": "Η θέση %s δεν δόθηκε από τη ζαριά %d: νέο αίτημα.",
		"err.takewhich":     "Ποιο παιχνίδι; Δώστε το όνομα του παιχνιδιού που παίζεται.",
		"err.nofreeseat":    "Καμία θέση του %q δεν είναι ελεύθερη: όλες τις παίζουν άνθρωποι.",
		"err.seatnotfree":   "Η θέση %s του %q δεν είναι ελεύθερη: την παίζει άνθρωπος.",
		"err.noadmit":       "Κανένας παίκτης του %q δεν δέχεται νεοφερμένο τώρα (%s)· δοκιμάστε ξανά σε ένα λεπτό.",
		"key.takeseat":      "πάρε θέση",
		"prompt.takeseat":   "Θέση στο παιχνίδι αριθμός (και χρώμα):",
		"err.seatlost":      "Τη θέση %s του %q την πήρε ο/η %s από τη ζαριά %d: δεν υπάρχει θέση για εσάς.",
		"err.takestalled":   "Το παιχνίδι %q δεν προχώρησε εδώ για %d δευτ. πριν πάρετε θέση: δοκιμάστε ξανά.",
		"err.takenumber":    "Δεν υπάρχει παιχνίδι %q σε εξέλιξη για θέση: γράψτε τον αριθμό του από τη λίστα, και αν θέλετε ένα χρώμα (2 blue).",
	})
}
