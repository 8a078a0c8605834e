package i18n

// Watching a running game, and continuing a saved one another day: the
// lobby's lists of both, the watcher's panel, the leave question's pause,
// and the session's notes about them (ui.Msg keys from package session).
// Each language has its own watch_*.go.
func init() {
	extend("it", map[string]string{
		"lobby.running":      "Partite in corso (guardane una)",
		"lobby.runninggame":  "%s — tiro %d, %d spettatori",
		"lobby.runninglead":  "%s — tiro %d, in testa %s, %d spettatori",
		"watch.ok":           "spettatore — verificati: %d record, tiro %d (da %s)",
		"watch.bad":          "il registro di un giocatore non ha superato i controlli: %s",
		"watch.paused":       "i giocatori hanno messo in pausa la partita al tiro %d — verificati: %d record",
		"log.watchpaused":    "i giocatori hanno messo in pausa la partita al tiro %d: ciò che hai guardato è salvato e verificato fin lì",
		"watch.end":          "guardata fino alla fine — verificati: %d record",
		"watch.by":           "ti guardano: %s",
		"lobby.continue":     "Partite salvate da continuare",
		"lobby.continuegame": "continua: %s — tiro %d, salvata %s (%s)",
		"weekday.0":          "domenica",
		"weekday.1":          "lunedì",
		"weekday.2":          "martedì",
		"weekday.3":          "mercoledì",
		"weekday.4":          "giovedì",
		"weekday.5":          "venerdì",
		"weekday.6":          "sabato",
		"key.pause":          "pausa: continua un altro giorno",

		"note.watch.looking": "Cerco la partita in corso %q sulla rete locale.",
		"note.watch.badlog":  "Il registro di %s non ha superato i controlli (%s): guardo da un altro giocatore.",
		"note.watch.joined":  "%s sta guardando la partita.",
		"note.continuing":    "Si riprende %q dopo %d lanci, salvata il %s.",
		"err.watchwhich":     "Quale partita? Indica la sala da guardare.",
		"err.nopause":        "Nessuna partita in corso da mettere in pausa.",
		"err.nocontinue":     "Nessuna partita salvata %q da riprendere: è finita, è stata abbandonata o è di un altro giocatore.",
	})
}
