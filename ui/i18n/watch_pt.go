package i18n

// Watching a running game, and continuing a saved one another day: the
// lobby's lists of both, the watcher's panel, the leave question's pause,
// and the session's notes about them (ui.Msg keys from package session).
// Each language has its own watch_*.go.
func init() {
	extend("pt", map[string]string{
		"lobby.running":      "Jogos a decorrer (assiste a um)",
		"lobby.runninggame":  "%s — lançamento %d, %d a assistir",
		"lobby.runninglead":  "%s — lançamento %d, %s à frente, %d a assistir",
		"watch.ok":           "a assistir — verificados: %d registos, lançamento %d (de %s)",
		"watch.bad":          "o registo de um jogador falhou as verificações: %s",
		"watch.paused":       "os jogadores puseram o jogo em pausa no lançamento %d — verificados: %d registos",
		"log.watchpaused":    "os jogadores puseram o jogo em pausa no lançamento %d: o que viste está guardado e verificado até aí",
		"watch.end":          "assistido até ao fim — verificados: %d registos",
		"watch.by":           "a assistir: %s",
		"lobby.continue":     "Jogos guardados para continuar",
		"lobby.continuegame": "continuar: %s — lançamento %d, guardado %s (%s)",
		"weekday.0":          "domingo",
		"weekday.1":          "segunda-feira",
		"weekday.2":          "terça-feira",
		"weekday.3":          "quarta-feira",
		"weekday.4":          "quinta-feira",
		"weekday.5":          "sexta-feira",
		"weekday.6":          "sábado",
		"key.pause":          "pausa: continuar noutro dia",

		"note.watch.looking": "À procura do jogo em curso %q na rede local.",
		"note.watch.badlog":  "O registo de %s falhou as verificações (%s): a assistir a partir de outro jogador.",
		"note.watch.joined":  "%s está a assistir ao jogo.",
		"note.continuing":    "A continuar %q após %d lançamentos, guardado em %s.",
		"err.watchwhich":     "Que jogo? Indique a sala a assistir.",
		"err.nopause":        "Não há nenhum jogo a decorrer para pausar.",
		"err.nocontinue":     "Não há nenhum jogo guardado %q para continuar: terminou, foi abandonado ou é de outro jogador.",
	})
}
