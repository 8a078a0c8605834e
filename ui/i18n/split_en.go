package i18n

// After a split (session/translate_split.go): an honest peer's messages
// signed on a branch the votes undid, said once per peer instead of as
// cheating. Each language has its own split_*.go.
func init() {
	extend("en", map[string]string{
		"note.split.setaside": "%s's messages from before the table met again were set aside (never applied).",
	})
}
