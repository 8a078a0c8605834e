package i18n

// Several people of one program at a LAN table (session/netpeople.go).
// Each language has its own hotlan_*.go.
func init() {
	extend("zh", map[string]string{
		"note.personnotseated": "%s 无法在这张桌子就座：%v",
		"note.autorollperson":  "已替 %s 掷骰：其他玩家不能再等了。",
	})
}
