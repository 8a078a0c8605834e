package i18n

// Several people of one program at a LAN table (session/netpeople.go).
// Each language has its own hotlan_*.go.
func init() {
	extend("el", map[string]string{
		"note.personnotseated": "Ο/Η %s δεν μπόρεσε να καθίσει σε αυτό το τραπέζι: %v",
		"note.autorollperson":  "Το ζάρι του/της %s ρίχτηκε για αυτόν/αυτήν: οι άλλοι δεν μπορούν να περιμένουν άλλο.",
	})
}
