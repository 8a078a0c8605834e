package ui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/skip2/go-qrcode"
)

// The phone page: the browser client the embedding program serves
// (Options.Web). The lobby and the table name its address; a QR code of
// it is drawn beside the text where the window has room for both, and
// the m key opens it in a box at any size that can hold it (80×24 can).
//
// The code is drawn with half blocks, two modules a cell (▀ top dark, ▄
// bottom dark, █ both, space neither), black on white whatever the
// terminal's colours: a scanner wants dark modules on a light ground.

// qrQuiet is the light margin, in modules, drawn around the code. The
// standard asks for 4; phone cameras read a code on a screen with 2, and
// the smaller margin keeps the box inside 80×24.
const qrQuiet = 2

// qrStyle is the code's colours: modules black (the foreground of the
// half blocks), the ground and quiet zone white.
var qrStyle = tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(tcell.ColorWhite)

// phonePage is what the interface knows of the page phones open.
type phonePage struct {
	asked bool     // Options.Web was called at least once
	at    bool     // what it was last told: the player is at a table
	urls  []string // where the page is served now, as Web said (raw text)
	qrFor string   // the address qr encodes
	qr    [][]bool // the code of urls[0] with its quiet zone; nil: none
}

// qrModules is the QR code of text (byte mode where the address needs
// it, error correction L: a screen is not a torn poster), as rows of
// modules, dark true, with a quiet zone of qrQuiet modules.
func qrModules(text string) ([][]bool, error) {
	q, err := qrcode.New(text, qrcode.Low)
	if err != nil {
		return nil, err
	}
	q.DisableBorder = true
	code := q.Bitmap() // builds the symbol: once per QRCode
	n := len(code) + 2*qrQuiet
	out := make([][]bool, n)
	for y := range out {
		out[y] = make([]bool, n)
		if y >= qrQuiet && y < qrQuiet+len(code) {
			copy(out[y][qrQuiet:], code[y-qrQuiet])
		}
	}
	return out, nil
}

// qrCells are the half-block cells showing modules: one row of cells
// per two rows of modules (an odd last row has a light one under it).
func qrCells(m [][]bool) [][]rune {
	dark := func(y, x int) bool { return y < len(m) && m[y][x] }
	var out [][]rune
	for y := 0; y < len(m); y += 2 {
		row := make([]rune, len(m[y]))
		for x := range row {
			switch top, bottom := dark(y, x), dark(y+1, x); {
			case top && bottom:
				row[x] = '█'
			case top:
				row[x] = '▀'
			case bottom:
				row[x] = '▄'
			default:
				row[x] = ' '
			}
		}
		out = append(out, row)
	}
	return out
}

// qrSize is the cells the code takes (0, 0 without one).
func (p *phonePage) qrSize() (w, h int) {
	if len(p.qr) == 0 {
		return 0, 0
	}
	return len(p.qr[0]), (len(p.qr) + 1) / 2
}

// drawQR paints the code with its top left cell at (x, y).
func (p *phonePage) drawQR(scr tcell.Screen, x, y int) {
	for dy, row := range qrCells(p.qr) {
		for dx, r := range row {
			scr.SetContent(x+dx, y+dy, r, nil, qrStyle)
		}
	}
}

// syncWeb tells Options.Web where the player is whenever that changed
// (and once at first), and keeps what it answers: at a table is any
// screen but the list of games. It runs after every event, key and click.
func (u *UI) syncWeb() {
	if u.opts.Web == nil {
		return
	}
	at := u.mode != modeLobby
	if u.phone.asked && at == u.phone.at {
		return
	}
	u.phone.asked, u.phone.at = true, at
	urls, err := u.opts.Web(at)
	if err != nil {
		u.log.Warn("the phone page is not served", "err", err)
		u.notice = clean(ErrorMsg(err).In(u.cat), maxChat)
	}
	u.setPhoneURLs(urls)
}

// setPhoneURLs shows urls as the page's addresses (none: not served).
func (u *UI) setPhoneURLs(urls []string) {
	u.phone.urls = append([]string(nil), urls...)
	if len(urls) == 0 {
		u.phone.qr, u.phone.qrFor = nil, ""
		if u.overlay == overlayPhone {
			u.overlay = overlayNone
		}
		return
	}
	if urls[0] == u.phone.qrFor {
		return
	}
	qr, err := qrModules(urls[0])
	if err != nil {
		u.log.Warn("no QR code for the phone page", "url", urls[0], "err", err)
		qr = nil
	}
	u.phone.qr, u.phone.qrFor = qr, urls[0]
}

// servingPhones: the page is served now, so its key and line show.
func (u *UI) servingPhones() bool { return len(u.phone.urls) > 0 }

// phoneURLs are the addresses, cleaned, for a line of text.
func (u *UI) phoneURLs() string {
	var out []string
	for _, s := range u.phone.urls {
		out = append(out, clean(s, 200))
	}
	return strings.Join(out, ", ")
}

// phoneLine is the lobby's and the table's line naming the page ("" when
// it is not served).
func (u *UI) phoneLine() string {
	if !u.servingPhones() {
		return ""
	}
	return u.t("phone.line", u.phoneURLs(), "[::b]m[::-]")
}

// phoneAside is where the code goes beside a screen's text of w×h: the
// text keeps textW columns (w when the code does not fit beside it).
func (u *UI) phoneAside(w, h int) (textW int, fits bool) {
	qw, qh := u.phone.qrSize()
	if qw == 0 || w < minAsideText+qw+3 || h < qh+1 {
		return w, false
	}
	return w - qw - 3, true
}

// minAsideText is the room the lobby's and the table's text keep when the
// code is drawn beside them: their lines as at 80 columns.
const minAsideText = 78

// drawPhoneAside draws the code at the right of a w-wide screen, from
// row y, with the caption under it where there is a row for it. Under an
// overlay it is left out: a box would cut it, and the phone box draws
// its own (two codes, one cut, would only puzzle a camera).
func (u *UI) drawPhoneAside(scr tcell.Screen, w, y, h int) {
	if u.overlay != overlayNone {
		return
	}
	qw, qh := u.phone.qrSize()
	x := w - qw - 1
	u.phone.drawQR(scr, x, y)
	for i, l := range wrapAll([]string{u.t("phone.scan")}, qw) {
		if qh+i >= h {
			break
		}
		printLine(scr, x, y+qh+i, qw, "[::d]"+l+"[::-]")
	}
}

// drawPhone is the m key's box: the code, the addresses and how to use
// them; where the window cannot hold the code, the addresses alone and
// the size it needs.
func (u *UI) drawPhone(scr tcell.Screen, w, h int) {
	qw, qh := u.phone.qrSize()
	bw := min(w-2, max(qw+4, 60))
	inner := bw - 4
	if inner <= 0 || h < 4 {
		return
	}
	parts := []string{u.phoneURLs(), "", u.t("phone.how"), u.t("phone.close")}
	text := wrapAll(parts, inner)
	withCode := qw > 0 && qw <= inner && 2+qh+1+len(text) <= h
	if !withCode && qw > 0 {
		// The window that holds it: the box at its full width, its
		// text wrapped there, and the key lines under it as now.
		fullW := max(qw+4, 60)
		needH := 2 + qh + 1 + len(wrapAll(parts, fullW-4)) + u.keyRows
		need := u.t("phone.small", fullW+2, needH)
		text = append(text, wrapAll([]string{"", need}, inner)...)
	}
	bh := 2 + len(text)
	if withCode {
		bh += qh + 1
	}
	bh = min(bh, h)
	x, y := (w-bw)/2, max((h-bh)/2, 0)
	drawBox(scr, " "+u.t("phone.title")+" ", x, y, bw, bh)
	top := y + 1
	if withCode {
		u.phone.drawQR(scr, x+(bw-qw)/2, top)
		top += qh + 1
	}
	for i, l := range text {
		if top+i >= y+bh-1 {
			break
		}
		printLine(scr, x+2, top+i, inner, l)
	}
}

// openPhone is a click on the page's line: as the m key.
func (u *UI) openPhone() {
	if u.free() && u.servingPhones() {
		u.overlay, u.scroll = overlayPhone, 0
	}
}
