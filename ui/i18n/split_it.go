package i18n

// After a split (session/translate_split.go): an honest peer's messages
// signed on a branch the votes undid, said once per peer instead of as
// cheating. Each language has its own split_*.go.
func init() {
	extend("it", map[string]string{
		"note.split.setaside": "I messaggi di %s da prima che il tavolo si riunisse sono stati messi da parte (mai applicati).",
	})
}
