package i18n

// The interactive replay (ui.RunReplay); each language has its own replay_*.go.
func init() {
	extend("zh", map[string]string{
		"replay.title":    "回放“%s”：第 %d 次掷骰，共 %d 次",
		"prompt.roll":     "跳到第几次掷骰：",
		"key.replay.next": "下一次掷骰",
		"key.replay.prev": "上一次掷骰",
		"key.replay.jump": "跳到某次掷骰",
		"key.replay.ten":  "10 次掷骰",
		"key.replay.ends": "开头／结尾",
		"err.replay":      "这是回放：这里不能下棋。",
	})
}
