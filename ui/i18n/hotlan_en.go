package i18n

// Several people of one program at a LAN table (session/netpeople.go).
// Each language has its own hotlan_*.go.
func init() {
	extend("en", map[string]string{
		"note.personnotseated": "%s could not sit at this table: %v",
		"note.autorollperson":  "%s's die was rolled for them: the others cannot wait longer.",
	})
}
