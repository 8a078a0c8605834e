package i18n

// Several people of one program at a LAN table (session/netpeople.go).
// Each language has its own hotlan_*.go.
func init() {
	extend("ru", map[string]string{
		"note.personnotseated": "%s не удалось сесть за этот стол: %v",
		"note.autorollperson":  "Кубик %s брошен за него/неё: остальные не могут ждать дольше.",
	})
}
