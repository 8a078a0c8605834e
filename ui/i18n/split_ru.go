package i18n

// After a split (session/translate_split.go): an honest peer's messages
// signed on a branch the votes undid, said once per peer instead of as
// cheating. Each language has its own split_*.go.
func init() {
	extend("ru", map[string]string{
		"note.split.setaside": "Сообщения %s, отправленные до того, как стол снова собрался, отложены (не применены).",
	})
}
