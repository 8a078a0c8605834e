package i18n

func init() {
	extend("it", map[string]string{
		"note.seat.moved":     "%s continua tramite il portatile di %s.",
		"note.seat.movedhere": "%s continua tramite questo portatile.",
	})
}
