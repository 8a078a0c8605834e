package i18n

func init() {
	extend("hi", map[string]string{
		"note.seat.moved":     "%s अब %s के लैपटॉप से खेलते हैं।",
		"note.seat.movedhere": "%s अब इस लैपटॉप से खेलते हैं।",
	})
}
