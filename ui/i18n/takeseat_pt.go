package i18n

// A late arrival taking a seat in a running game: the session's notes as
// it asks for the seat, the players' note when it is taken, and the
// lobby's key for it. Each language has its own takeseat_*.go.
func init() {
	extend("pt", map[string]string{
		"note.seat.looking": "A procurar um lugar livre no jogo em curso %q na LAN.",
		"note.seat.asking":  "A pedir o lugar %s de %q.",
		"note.seat.taken":   "%s fica com o lugar %s a partir do lançamento %d.",
		"note.seat.refused": "O lugar %s não foi dado a partir do lançamento %d: a pedir de novo.",
		"err.takewhich":     "Que jogo? Indique o jogo em curso onde se sentar.",
		"err.nofreeseat":    "Nenhum lugar de %q está livre: todos são jogados por pessoas.",
		"err.seatnotfree":   "O lugar %s de %q não está livre: uma pessoa joga-o.",
		"err.noadmit":       "Nenhum jogador de %q aceita agora um recém-chegado (%s); tente de novo daqui a um minuto.",
		"key.takeseat":      "ocupar um lugar",
		"prompt.takeseat":   "Ocupar lugar no jogo número (e cor):",
		"err.seatlost":      "O lugar %s de %q foi ocupado por %s a partir do lançamento %d: não há lugar para si.",
		"err.takestalled":   "O jogo %q não avançou aqui durante %d s antes de ter um lugar: tente de novo.",
		"err.takenumber":    "Nenhum jogo em curso %q onde se sentar: escreva o número dele na lista e, se quiser, uma cor (2 blue).",
	})
}
