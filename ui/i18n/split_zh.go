package i18n

// After a split (session/translate_split.go): an honest peer's messages
// signed on a branch the votes undid, said once per peer instead of as
// cheating. Each language has its own split_*.go.
func init() {
	extend("zh", map[string]string{
		"note.split.setaside": "%s 在牌桌重聚之前发出的消息已被搁置（从未生效）。",
	})
}
