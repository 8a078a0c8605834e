package i18n

func init() {
	extend("el", map[string]string{
		"note.seat.moved":     "Ο/Η %s συνεχίζει μέσω του υπολογιστή του/της %s.",
		"note.seat.movedhere": "Ο/Η %s συνεχίζει μέσω αυτού του υπολογιστή.",
	})
}
