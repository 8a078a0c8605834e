package i18n

func init() {
	extend("ru", map[string]string{
		"note.seat.moved":     "%s продолжает игру через ноутбук %s.",
		"note.seat.movedhere": "%s продолжает игру через этот ноутбук.",
	})
}
