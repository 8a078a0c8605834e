package i18n

// A late arrival taking a seat in a running game: the session's notes as
// it asks for the seat, the players' note when it is taken, and the
// lobby's key for it. Each language has its own takeseat_*.go.
func init() {
	extend("ru", map[string]string{
		"note.seat.looking": "Поиск свободного места в идущей игре %q в локальной сети.",
		"note.seat.asking":  "Запрос места %s в %q.",
		"note.seat.taken":   "%s занимает место %s с броска %d.",
		"note.seat.refused": "Место %s не выдано с броска %d: новый запрос.",
		"err.takewhich":     "Какая игра? Укажите идущую игру, в которой занять место.",
		"err.nofreeseat":    "В %q нет свободных мест: все занимают люди.",
		"err.seatnotfree":   "Место %s в %q не свободно: его занимает человек.",
		"err.noadmit":       "Ни один игрок %q сейчас не принимает новичка (%s); попробуйте через минуту.",
		"key.takeseat":      "занять место",
		"prompt.takeseat":   "Занять место в игре номер (и цвет):",
		"err.seatlost":      "Место %s в %q занял(а) %s с броска %d: места для вас нет.",
		"err.takestalled":   "Игра %q не продвигалась здесь %d с, пока у вас не было места: попробуйте снова.",
		"err.takenumber":    "Нет идущей игры %q, чтобы занять место: введите её номер из списка и, если хотите, цвет (2 blue).",
	})
}
