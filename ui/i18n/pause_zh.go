package i18n

// Pausing a game for everyone (ui/pausegame.go): the p key's question,
// its answers and the event lines. Each language has its own pause_*.go.
func init() {
	extend("zh", map[string]string{
		"key.pausegame":        "全体暂停",
		"key.pauseall":         "全体暂停",
		"key.playon":           "继续玩",
		"pause.title":          "暂停游戏？",
		"pause.text":           "为所有人暂停游戏？也会询问其他玩家。所有玩家都暂停后，游戏停止，大厅会提供改天继续。",
		"log.pausesent":        "你已请求暂停：等待其他人也暂停",
		"log.pauseasked":       "%s 请求暂停——按 p 一起暂停",
		"log.pausedtoo":        "%s 也暂停了",
		"log.paused":           "游戏暂停在第 %d 次掷骰：改天从大厅继续",
		"err.pausegame":        "无法暂停游戏：%v",
		"log.playon":           "你继续玩：已撤回暂停请求",
		"log.pauselifted":      "%s 继续玩",
		"key.liftpause":        "撤回暂停",
		"note.continuewait":    "等待 %s 也继续这局游戏（最多 %s）。",
		"note.continuewithout": "%s 未在 %s 内继续游戏：游戏继续，由机器人代替他们，直到他们回来。",
	})
}
