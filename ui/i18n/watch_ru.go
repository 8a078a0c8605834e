package i18n

// Watching a running game, and continuing a saved one another day: the
// lobby's lists of both, the watcher's panel, the leave question's pause,
// and the session's notes about them (ui.Msg keys from package session).
// Each language has its own watch_*.go.
func init() {
	extend("ru", map[string]string{
		"lobby.running":      "Идущие игры (можно смотреть)",
		"lobby.runninggame":  "%s — бросок %d, зрителей: %d",
		"lobby.runninglead":  "%s — бросок %d, впереди %s, зрителей: %d",
		"watch.ok":           "просмотр — проверено записей: %d, бросок %d (от %s)",
		"watch.bad":          "журнал игрока не прошёл проверку: %s",
		"watch.paused":       "игроки поставили игру на паузу на броске %d — проверено записей: %d",
		"log.watchpaused":    "игроки поставили игру на паузу на броске %d: то, что вы смотрели, сохранено и проверено до этого места",
		"watch.end":          "просмотрено до конца — проверено записей: %d",
		"watch.by":           "смотрят: %s",
		"lobby.continue":     "Сохранённые игры",
		"lobby.continuegame": "продолжить: %s — бросок %d, сохранено: %s (%s)",
		"weekday.0":          "воскресенье",
		"weekday.1":          "понедельник",
		"weekday.2":          "вторник",
		"weekday.3":          "среда",
		"weekday.4":          "четверг",
		"weekday.5":          "пятница",
		"weekday.6":          "суббота",
		"key.pause":          "пауза: продолжить в другой день",

		"note.watch.looking": "Поиск идущей игры %q в локальной сети.",
		"note.watch.badlog":  "Журнал игрока %s не прошёл проверку (%s): наблюдение продолжается через другого игрока.",
		"note.watch.joined":  "%s наблюдает за игрой.",
		"note.continuing":    "Продолжение игры %q после %d бросков, сохранено %s.",
		"err.watchwhich":     "Какую игру? Назовите лобби, за которым хотите наблюдать.",
		"err.nopause":        "Сейчас не идёт игра, которую можно поставить на паузу.",
		"err.nocontinue":     "Нет сохранённой игры %q для продолжения: она окончена, покинута или принадлежит другому игроку.",
	})
}
