package i18n

// Several people of one program at a LAN table (session/netpeople.go).
// Each language has its own hotlan_*.go.
func init() {
	extend("hi", map[string]string{
		"note.personnotseated": "%s इस मेज़ पर नहीं बैठ सके: %v",
		"note.autorollperson":  "%s का पासा उनके लिए फेंका गया: बाकी खिलाड़ी और इंतज़ार नहीं कर सकते।",
	})
}
