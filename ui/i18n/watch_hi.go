package i18n

// Watching a running game, and continuing a saved one another day: the
// lobby's lists of both, the watcher's panel, the leave question's pause,
// and the session's notes about them (ui.Msg keys from package session).
// Each language has its own watch_*.go.
func init() {
	extend("hi", map[string]string{
		"lobby.running":      "चल रहे खेल (कोई एक देखें)",
		"lobby.runninggame":  "%s — चाल %d, %d देख रहे हैं",
		"lobby.runninglead":  "%s — चाल %d, %s आगे, %d देख रहे हैं",
		"watch.ok":           "देख रहे हैं — जाँचे गए: %d रिकॉर्ड, चाल %d (%s से)",
		"watch.bad":          "एक खिलाड़ी का लॉग जाँच में विफल: %s",
		"watch.paused":       "खिलाड़ियों ने खेल पासा %d पर रोक दिया — सत्यापित: %d रिकॉर्ड",
		"log.watchpaused":    "खिलाड़ियों ने खेल पासा %d पर रोक दिया: आपने जो देखा वह वहाँ तक सत्यापित होकर सहेजा गया है",
		"watch.end":          "अंत तक देखा — जाँचे गए: %d रिकॉर्ड",
		"watch.by":           "देख रहे हैं: %s",
		"lobby.continue":     "जारी रखने के लिए सहेजे गए खेल",
		"lobby.continuegame": "जारी रखें: %s — चाल %d, सहेजा %s (%s)",
		"weekday.0":          "रविवार",
		"weekday.1":          "सोमवार",
		"weekday.2":          "मंगलवार",
		"weekday.3":          "बुधवार",
		"weekday.4":          "गुरुवार",
		"weekday.5":          "शुक्रवार",
		"weekday.6":          "शनिवार",
		"key.pause":          "विराम: किसी और दिन जारी रखें",

		"note.watch.looking": "LAN पर चल रहा खेल %q खोजा जा रहा है।",
		"note.watch.badlog":  "%s का लॉग जाँच में विफल रहा (%s): अब दूसरे खिलाड़ी से देखा जा रहा है।",
		"note.watch.joined":  "%s खेल देख रहे हैं।",
		"note.continuing":    "%q जारी है, %d पासों के बाद, सहेजा गया %s।",
		"err.watchwhich":     "कौन-सा खेल? देखने के लिए लॉबी का नाम दें।",
		"err.nopause":        "रोकने के लिए कोई खेल नहीं चल रहा है।",
		"err.nocontinue":     "जारी रखने के लिए कोई सहेजा गया खेल %q नहीं: वह समाप्त हो गया, छोड़ा गया, या किसी दूसरे खिलाड़ी का है।",
	})
}
