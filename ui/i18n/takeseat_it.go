package i18n

// A late arrival taking a seat in a running game: the session's notes as
// it asks for the seat, the players' note when it is taken, and the
// lobby's key for it. Each language has its own takeseat_*.go.
func init() {
	extend("it", map[string]string{
		"note.seat.looking": "Cerco un posto libero nella partita in corso %q sulla LAN.",
		"note.seat.asking":  "Chiedo il posto %s di %q.",
		"note.seat.taken":   "%s prende il posto %s dal tiro %d.",
		"note.seat.refused": "Il posto %s non è stato dato dal tiro %d: chiedo di nuovo.",
		"err.takewhich":     "Quale partita? Indica la partita in corso in cui sederti.",
		"err.nofreeseat":    "Nessun posto di %q è libero: li giocano tutti delle persone.",
		"err.seatnotfree":   "Il posto %s di %q non è libero: lo gioca una persona.",
		"err.noadmit":       "Nessun giocatore di %q accetta ora un nuovo arrivato (%s); riprova tra un minuto.",
		"key.takeseat":      "prendi un posto",
		"prompt.takeseat":   "Prendi posto nella partita numero (e colore):",
		"err.seatlost":      "Il posto %s di %q è stato preso da %s dal tiro %d: nessun posto per te.",
		"err.takestalled":   "La partita %q non è andata avanti qui per %d s prima che tu avessi un posto: riprova.",
		"err.takenumber":    "Nessuna partita in corso %q in cui sederti: scrivi il suo numero dalla lista, e se vuoi un colore (2 blue).",
	})
}
