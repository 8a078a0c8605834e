package i18n

// A late arrival taking a seat in a running game: the session's notes as
// it asks for the seat, the players' note when it is taken, and the
// lobby's key for it. Each language has its own takeseat_*.go.
func init() {
	extend("hi", map[string]string{
		"note.seat.looking": "LAN पर चल रहे खेल %q में खाली सीट खोजी जा रही है।",
		"note.seat.asking":  "%s सीट माँगी जा रही है (%q)।",
		"note.seat.taken":   "%s पासे %[3]d से %[2]s सीट लेते हैं।",
		"note.seat.refused": "%s सीट पासे %d से नहीं मिली: फिर से माँगा जा रहा है।",
		"err.takewhich":     "कौन सा खेल? चल रहे खेल का नाम दें।",
		"err.nofreeseat":    "%q में कोई सीट खाली नहीं: सभी लोग खेल रहे हैं।",
		"err.seatnotfree":   "%s सीट (%q) खाली नहीं: उसे एक व्यक्ति खेल रहा है।",
		"err.noadmit":       "%q का कोई खिलाड़ी अभी नए व्यक्ति को नहीं आने देता (%s); एक मिनट में फिर कोशिश करें।",
		"key.takeseat":      "सीट लें",
		"prompt.takeseat":   "खेल संख्या में सीट लें (और रंग):",
		"err.seatlost":      "%[2]q की %[1]s सीट पासे %[4]d से %[3]s ने ले ली: आपके लिए कोई सीट नहीं।",
		"err.takestalled":   "सीट मिलने से पहले खेल %q यहाँ %d सेकंड तक आगे नहीं बढ़ा: फिर कोशिश करें।",
		"err.takenumber":    "सीट लेने के लिए कोई चल रहा खेल %q नहीं: सूची से उसकी संख्या लिखें, चाहें तो रंग भी (2 blue)।",
	})
}
