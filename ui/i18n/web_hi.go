package i18n

// The names and refusals of web players (the browser client a program
// at the table serves): a person's name refused at the table, a command
// the page sent that the program does not know, and the mark of a web
// player in the terminal's table. Each language has its own web_*.go.
func init() {
	extend("hi", map[string]string{
		"err.personname.long":    "कृपया अधिकतम %d बाइट का नाम दें।",
		"err.personname.control": "नाम में नियंत्रण वर्ण नहीं हो सकते।",
		"err.personname.taken":   "%s यहाँ पहले से खेल रहा है: नए व्यक्ति को कोई दूसरा नाम दें।",
		"err.webcmd":             "पेज ने ऐसा आदेश भेजा जिसे यह प्रोग्राम नहीं जानता: पेज फिर से लोड करें।",
		"table.phone":            "फ़ोन",
	})
}
