package i18n

// After a split (session/translate_split.go): an honest peer's messages
// signed on a branch the votes undid, said once per peer instead of as
// cheating. Each language has its own split_*.go.
func init() {
	extend("hi", map[string]string{
		"note.split.setaside": "मेज़ के फिर से जुड़ने से पहले के %s के संदेश अलग रख दिए गए (कभी लागू नहीं हुए)।",
	})
}
