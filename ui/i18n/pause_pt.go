package i18n

// Pausing a game for everyone (ui/pausegame.go): the p key's question,
// its answers and the event lines. Each language has its own pause_*.go.
func init() {
	extend("pt", map[string]string{
		"key.pausegame":        "pausa para todos",
		"key.pauseall":         "pausa para todos",
		"key.playon":           "continuar a jogar",
		"pause.title":          "Pausar o jogo?",
		"pause.text":           "Pausar o jogo para todos? Os outros também são consultados. Quando todos os jogadores pausarem, o jogo para e o lobby oferece-o para continuar noutro dia.",
		"log.pausesent":        "pediste uma pausa: à espera que os outros também pausem",
		"log.pauseasked":       "%s pede uma pausa — carrega em p para pausar também",
		"log.pausedtoo":        "%s também pausou",
		"log.paused":           "o jogo está em pausa no lançamento %d: continua-o a partir do lobby noutro dia",
		"err.pausegame":        "Não foi possível pausar o jogo: %v",
		"log.playon":           "continuas a jogar: o teu pedido de pausa foi retirado",
		"log.pauselifted":      "%s continua a jogar",
		"key.liftpause":        "retirar a pausa",
		"note.continuewait":    "À espera de que %s também continue o jogo (no máximo %s).",
		"note.continuewithout": "%s não continuou o jogo em %s: o jogo segue, com bots nos seus lugares até voltarem.",
	})
}
