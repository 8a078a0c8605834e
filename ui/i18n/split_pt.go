package i18n

// After a split (session/translate_split.go): an honest peer's messages
// signed on a branch the votes undid, said once per peer instead of as
// cheating. Each language has its own split_*.go.
func init() {
	extend("pt", map[string]string{
		"note.split.setaside": "As mensagens de %s de antes de a mesa se reunir foram postas de lado (nunca aplicadas).",
	})
}
