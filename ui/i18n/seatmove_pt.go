package i18n

func init() {
	extend("pt", map[string]string{
		"note.seat.moved":     "%s continua através do portátil de %s.",
		"note.seat.movedhere": "%s continua através deste portátil.",
	})
}
