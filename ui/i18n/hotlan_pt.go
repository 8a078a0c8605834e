package i18n

// Several people of one program at a LAN table (session/netpeople.go).
// Each language has its own hotlan_*.go.
func init() {
	extend("pt", map[string]string{
		"note.personnotseated": "%s não se pôde sentar nesta mesa: %v",
		"note.autorollperson":  "O dado de %s foi lançado por si: os outros não podem esperar mais.",
	})
}
