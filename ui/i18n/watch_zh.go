package i18n

// Watching a running game, and continuing a saved one another day: the
// lobby's lists of both, the watcher's panel, the leave question's pause,
// and the session's notes about them (ui.Msg keys from package session).
// Each language has its own watch_*.go.
func init() {
	extend("zh", map[string]string{
		"lobby.running":      "进行中的游戏（可观战）",
		"lobby.runninggame":  "%s — 第 %d 掷，%d 人观战",
		"lobby.runninglead":  "%s — 第 %d 掷，%s 领先，%d 人观战",
		"watch.ok":           "观战中 — 已验证：%d 条记录，第 %d 掷（来自 %s）",
		"watch.bad":          "某位玩家的日志未通过检查：%s",
		"watch.paused":       "玩家们在第 %d 次掷骰时暂停了游戏——已验证：%d 条记录",
		"log.watchpaused":    "玩家们在第 %d 次掷骰时暂停了游戏：你观看的内容已保存并验证到此处",
		"watch.end":          "已观战到结束 — 已验证：%d 条记录",
		"watch.by":           "观战者：%s",
		"lobby.continue":     "可继续的存档",
		"lobby.continuegame": "继续：%s — 第 %d 掷，保存于%s（%s）",
		"weekday.0":          "星期日",
		"weekday.1":          "星期一",
		"weekday.2":          "星期二",
		"weekday.3":          "星期三",
		"weekday.4":          "星期四",
		"weekday.5":          "星期五",
		"weekday.6":          "星期六",
		"key.pause":          "暂停：改天继续",

		"note.watch.looking": "正在局域网上寻找进行中的对局 %q。",
		"note.watch.badlog":  "%s 的记录未通过校验（%s）：改为从另一位玩家处观战。",
		"note.watch.joined":  "%s 正在观战。",
		"note.continuing":    "继续对局 %q：已掷 %d 次，保存于 %s。",
		"err.watchwhich":     "哪一局？请说出要观战的大厅名称。",
		"err.nopause":        "当前没有进行中的对局可以暂停。",
		"err.nocontinue":     "没有可继续的已保存对局 %q：它已结束、已离开，或属于其他玩家。",
	})
}
