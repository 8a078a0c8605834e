package i18n

// The names and refusals of web players (the browser client a program
// at the table serves): a person's name refused at the table, a command
// the page sent that the program does not know, and the mark of a web
// player in the terminal's table. Each language has its own web_*.go.
func init() {
	extend("zh", map[string]string{
		"err.personname.long":    "名字最多 %d 个字节。",
		"err.personname.control": "名字里不能有控制字符。",
		"err.personname.taken":   "%s 已经在这里玩了：请给新来的人换个名字。",
		"err.webcmd":             "页面发来了本程序不认识的命令：请重新加载页面。",
		"table.phone":            "手机",
	})
}
