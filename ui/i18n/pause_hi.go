package i18n

// Pausing a game for everyone (ui/pausegame.go): the p key's question,
// its answers and the event lines. Each language has its own pause_*.go.
func init() {
	extend("hi", map[string]string{
		"key.pausegame":        "सबके लिए रोकें",
		"key.pauseall":         "सबके लिए रोकें",
		"key.playon":           "खेलते रहें",
		"pause.title":          "खेल रोकें?",
		"pause.text":           "सबके लिए खेल रोकें? दूसरों से भी पूछा जाएगा। जब सभी खिलाड़ी रोक दें, तो खेल रुक जाता है और लॉबी उसे किसी और दिन जारी रखने के लिए देती है।",
		"log.pausesent":        "आपने रोकने को कहा: दूसरों के भी रोकने की प्रतीक्षा है",
		"log.pauseasked":       "%s रोकना चाहते हैं — आप भी रोकने के लिए p दबाएँ",
		"log.pausedtoo":        "%s ने भी रोक दिया",
		"log.paused":           "खेल पासा %d पर रुका है: किसी और दिन लॉबी से जारी रखें",
		"err.pausegame":        "खेल रोका नहीं जा सका: %v",
		"log.playon":           "आप खेलते रहेंगे: रोकने का आपका अनुरोध हटा दिया गया",
		"log.pauselifted":      "%s खेलते रहेंगे",
		"key.liftpause":        "रोकने का अनुरोध वापस लें",
		"note.continuewait":    "%s के भी खेल जारी करने की प्रतीक्षा (अधिकतम %s)।",
		"note.continuewithout": "%s ने %s के भीतर खेल जारी नहीं किया: खेल आगे बढ़ता है, उनके लौटने तक बॉट उनकी सीटें चलाते हैं।",
	})
}
