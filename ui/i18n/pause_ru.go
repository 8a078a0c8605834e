package i18n

// Pausing a game for everyone (ui/pausegame.go): the p key's question,
// its answers and the event lines. Each language has its own pause_*.go.
func init() {
	extend("ru", map[string]string{
		"key.pausegame":        "пауза для всех",
		"key.pauseall":         "пауза для всех",
		"key.playon":           "играть дальше",
		"pause.title":          "Поставить игру на паузу?",
		"pause.text":           "Поставить игру на паузу для всех? Остальных тоже спросят. Когда все игроки поставят паузу, игра остановится, и лобби предложит продолжить её в другой день.",
		"log.pausesent":        "вы попросили паузу: ждём, пока остальные тоже поставят паузу",
		"log.pauseasked":       "%s просит паузу — нажмите p, чтобы тоже поставить паузу",
		"log.pausedtoo":        "%s тоже поставил(а) паузу",
		"log.paused":           "игра на паузе на броске %d: продолжите её из лобби в другой день",
		"err.pausegame":        "Не удалось поставить игру на паузу: %v",
		"log.playon":           "вы играете дальше: ваша просьба о паузе снята",
		"log.pauselifted":      "%s играет дальше",
		"key.liftpause":        "отменить паузу",
		"note.continuewait":    "Ждём, когда %s тоже продолжит игру (не дольше %s).",
		"note.continuewithout": "%s не продолжили игру за %s: игра идёт дальше, за них играют боты, пока они не вернутся.",
	})
}
