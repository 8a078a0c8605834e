package i18n

// A late arrival taking a seat in a running game: the session's notes as
// it asks for the seat, the players' note when it is taken, and the
// lobby's key for it. Each language has its own takeseat_*.go.
func init() {
	extend("zh", map[string]string{
		"note.seat.looking": "正在局域网上进行中的游戏 %q 里寻找空座位。",
		"note.seat.asking":  "正在请求 %s 座位（%q）。",
		"note.seat.taken":   "%s 从第 %[3]d 掷起接手 %[2]s 座位。",
		"note.seat.refused": "%s 座位未能从第 %d 掷起交出：再次请求。",
		"err.takewhich":     "哪个游戏？请给出要入座的进行中游戏的名字。",
		"err.nofreeseat":    "%q 没有空座位：都由真人在玩。",
		"err.seatnotfree":   "%s 座位（%q）不空：由真人在玩。",
		"err.noadmit":       "%q 的玩家现在都不接受新来者（%s）；请一分钟后再试。",
		"key.takeseat":      "入座",
		"prompt.takeseat":   "在第几个游戏入座（可加颜色）：",
		"err.seatlost":      "%[2]q 的 %[1]s 座位已由 %[3]s 从第 %[4]d 掷起接手：没有你的座位。",
		"err.takestalled":   "在你入座之前，游戏 %q 在这里 %d 秒没有进展：请再试一次。",
		"err.takenumber":    "没有可入座的进行中游戏 %q：请输入列表中的编号，也可加颜色（2 blue）。",
	})
}
