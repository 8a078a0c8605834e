package i18n

// Pausing a game for everyone (ui/pausegame.go): the p key's question,
// its answers and the event lines. Each language has its own pause_*.go.
func init() {
	extend("it", map[string]string{
		"key.pausegame":        "pausa per tutti",
		"key.pauseall":         "pausa per tutti",
		"key.playon":           "continua a giocare",
		"pause.title":          "Mettere in pausa la partita?",
		"pause.text":           "Mettere in pausa la partita per tutti? Lo chiediamo anche agli altri. Quando tutti i giocatori hanno messo in pausa, la partita si ferma e la lobby la offre da continuare un altro giorno.",
		"log.pausesent":        "hai chiesto la pausa: si attende che anche gli altri la mettano",
		"log.pauseasked":       "%s chiede una pausa — premi p per metterla anche tu",
		"log.pausedtoo":        "anche %s ha messo in pausa",
		"log.paused":           "la partita è in pausa al tiro %d: continuala dalla lobby un altro giorno",
		"err.pausegame":        "Non è stato possibile mettere in pausa la partita: %v",
		"log.playon":           "continui a giocare: la tua richiesta di pausa è ritirata",
		"log.pauselifted":      "%s continua a giocare",
		"key.liftpause":        "ritira la pausa",
		"note.continuewait":    "In attesa che anche %s riprenda la partita (al massimo %s).",
		"note.continuewithout": "%s non ha ripreso la partita entro %s: si continua, i bot giocano al loro posto finché non tornano.",
	})
}
