package i18n

// The page phones at the table open (the browser client the program
// serves): its line in the lobby and at the table, the caption of its
// QR code and the m key's box. Each language has its own phone_*.go.
func init() {
	extend("zh", map[string]string{
		"key.phone":   "手机：扫码",
		"phone.line":  "手机页面：%s（%s：扫码）",
		"phone.scan":  "用手机扫码来玩",
		"phone.title": "用手机玩",
		"phone.how":   "用同一网络里的手机扫描二维码，或在手机浏览器里输入这个地址。",
		"phone.close": "esc 关闭",
		"phone.small": "窗口太小，放不下二维码：请至少调到 %d×%d。",
	})
}
