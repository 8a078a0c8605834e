package i18n

func init() {
	extend("zh", map[string]string{
		"note.seat.moved":     "%s 改为通过 %s 的电脑继续游戏。",
		"note.seat.movedhere": "%s 改为通过这台电脑继续游戏。",
	})
}
