package ui

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"aeroplane/engine"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/skip2/go-qrcode"
)

const phoneURL = "http://10.213.0.1:41234/"

// webPolicy stands in for the program's server of the phone page: it
// records what it is told and serves only while the player is at a
// table (the default of internal/cli), or always.
type webPolicy struct {
	told   []bool
	always bool
	err    error
}

func (p *webPolicy) web(at bool) ([]string, error) {
	p.told = append(p.told, at)
	if p.err != nil {
		return nil, p.err
	}
	if at || p.always {
		return []string{phoneURL}, nil
	}
	return nil, nil
}

// phoneUI is the lobby of a program that serves the page (always, as with
// --web ADDR), or the table it serves it at.
func phoneUI(lang string, table bool) (*UI, *webPolicy) {
	p := &webPolicy{always: true}
	u := New(newFake(), Options{Lang: lang, Web: p.web})
	u.Apply(LobbyUpdate{Me: Peer{ID: "12D3KooWabcdefXyZ123", Name: "alice", Addr: "/ip4/10.213.0.1/tcp/4001/p2p/12D3KooWabcdefXyZ123"}})
	if table {
		t := table4(false)
		t.GameID = "phones"
		t.Seats[1], t.Seats[3] = Seat{Kind: SeatOpen}, Seat{Kind: SeatOpen}
		u.Apply(t)
	}
	return u, p
}

// The lobby and the table name the page; where the window is wide enough
// (120×40) the code stands beside the text, and the m key's box shows it
// at 80×24 too; a window too small for the code gets the address and the
// size the code needs.
func TestPhoneGolden(t *testing.T) {
	cases := []struct {
		name  string
		lang  string
		table bool
		open  bool
		sizes [][2]int
	}{
		{"phone-lobby", "en", false, false, [][2]int{{80, 24}, {120, 40}}},
		{"phone-table", "en", true, false, [][2]int{{80, 24}, {120, 40}}},
		{"phone-box", "en", true, true, [][2]int{{80, 24}, {120, 40}, {60, 20}}},
		{"phone-box-zh", "zh", true, true, [][2]int{{80, 24}}},
	}
	for _, c := range cases {
		for _, size := range c.sizes {
			name := fmt.Sprintf("%s-%dx%d", c.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				u, _ := phoneUI(c.lang, c.table)
				if c.open {
					u.HandleKey(ch('m'))
					if u.overlay != overlayPhone {
						t.Fatal("m did not open the phone box")
					}
				}
				checkGolden(t, name, render(t, u, size[0], size[1]))
			})
		}
	}
}

// encoderModules is the library's own matrix of text, without a border.
func encoderModules(t *testing.T, text string) [][]bool {
	t.Helper()
	q, err := qrcode.New(text, qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	q.DisableBorder = true
	return q.Bitmap()
}

// screenModules reads back the QR code drawn on s: the cells in the
// code's colours, each half block two modules (▀ top, ▄ bottom, █ both).
func screenModules(t *testing.T, s tcell.SimulationScreen) [][]bool {
	t.Helper()
	s.Show()
	cells, w, h := s.GetContents()
	x0, y0, x1, y1 := w, h, -1, -1
	for y := range h {
		for x := range w {
			if cells[y*w+x].Style == qrStyle {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		t.Fatal("no cell in the code's colours on the screen")
	}
	var out [][]bool
	for y := y0; y <= y1; y++ {
		top, bottom := make([]bool, x1-x0+1), make([]bool, x1-x0+1)
		for x := x0; x <= x1; x++ {
			c := cells[y*w+x]
			if c.Style != qrStyle {
				t.Fatalf("cell %d,%d inside the code is not in its colours", x, y)
			}
			r := []rune(string(c.Runes))
			if len(r) != 1 || !strings.ContainsRune(" ▀▄█", r[0]) {
				t.Fatalf("cell %d,%d of the code is %q, not a half block", x, y, string(c.Runes))
			}
			top[x-x0] = r[0] == '▀' || r[0] == '█'
			bottom[x-x0] = r[0] == '▄' || r[0] == '█'
		}
		out = append(out, top, bottom)
	}
	return out
}

// The code on the screen, in the box and beside the table, is the
// encoder's matrix module for module, inside a light quiet zone of
// qrQuiet modules: a change in how it is drawn (a swapped half block, a
// lost row, an inverted colour) fails here, without decoding anything.
func TestPhoneQRIsTheEncodersMatrix(t *testing.T) {
	want := encoderModules(t, phoneURL)
	for _, c := range []struct {
		name string
		w, h int
		open bool
	}{
		{"box 80x24", 80, 24, true}, {"box 120x40", 120, 40, true}, {"beside 120x40", 120, 40, false},
		{"box 62x24, the size 60x20 asks for", 62, 24, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, _ := phoneUI("en", true)
			if c.open {
				u.HandleKey(ch('m'))
			}
			s := newSim(t, c.w, c.h)
			u.Draw(s, c.w, c.h)
			got := screenModules(t, s)
			n := len(want) + 2*qrQuiet
			if len(got) != n+1 || len(got[0]) != n { // n is odd: the last cell's bottom half is light
				t.Fatalf("code drawn %d×%d modules, want %d×%d (with the quiet zone)", len(got[0]), len(got), n, n)
			}
			for y, row := range got {
				for x, dark := range row {
					in := y >= qrQuiet && y < qrQuiet+len(want) && x >= qrQuiet && x < qrQuiet+len(want)
					if in && dark != want[y-qrQuiet][x-qrQuiet] {
						t.Fatalf("module %d,%d drawn dark=%v, the encoder's %v", x-qrQuiet, y-qrQuiet, dark, !dark)
					}
					if !in && dark {
						t.Fatalf("the quiet zone is dark at %d,%d", x, y)
					}
				}
			}
		})
	}
}

// The page's server is told when the player sits at a table and when
// they are back at the list of games, and only then; the lines and the
// m key follow what it serves.
func TestPhoneToldAtTable(t *testing.T) {
	p := &webPolicy{}
	f := newFake()
	u := New(f, Options{Lang: "en", Web: p.web})
	u.sess = goOnSession{fakeSession: f}
	lobby := LobbyUpdate{Me: Peer{ID: "me", Name: "alice", Addr: "/ip4/10.213.0.1/tcp/4001"}}
	u.Apply(lobby)
	u.Apply(lobby)
	if want := []bool{false}; !reflect.DeepEqual(p.told, want) {
		t.Fatalf("told %v in the lobby, want %v", p.told, want)
	}
	if got := render(t, u, 80, 24); strings.Contains(got, "http://") || u.servingPhones() {
		t.Fatalf("the lobby names a page not served:\n%s", got)
	}
	u.HandleKey(ch('m'))
	if u.overlay == overlayPhone {
		t.Fatal("m opened the phone box with no page served")
	}
	u.Apply(table4(false))
	if got := render(t, u, 80, 24); !strings.Contains(got, "Page for phones: "+phoneURL) {
		t.Fatalf("the table does not name the page:\n%s", got)
	}
	u.Apply(table4(true))
	u.Apply(GameStarted{Position: mustPos(t, "H,H,H,H/H,H,H,H/H,H,H,H/H,H,H,H R 0 -"), Rules: engine.DefaultRules()})
	u.HandleKey(ch('m'))
	if u.overlay != overlayPhone {
		t.Fatal("m in the game did not open the phone box")
	}
	u.HandleKey(key(tcell.KeyEscape))
	if u.overlay != overlayNone {
		t.Fatal("esc did not close the phone box")
	}
	u.Apply(AloneDecision{Missing: []string{"bob"}})
	u.HandleKey(ch('e')) // end the game: back to the list of games
	if u.mode != modeLobby {
		t.Fatalf("mode %d after ending the game, want the lobby", u.mode)
	}
	if want := []bool{false, true, false}; !reflect.DeepEqual(p.told, want) {
		t.Fatalf("told %v, want %v", p.told, want)
	}
	if u.servingPhones() {
		t.Fatal("the lobby still names the page its server stopped")
	}

	// A page that cannot be served says why, and names no address.
	p = &webPolicy{err: errors.New("web: listening on 10.213.0.1: address already in use")}
	u = New(newFake(), Options{Lang: "en", Web: p.web})
	u.Apply(lobby)
	u.Apply(table4(false))
	if got := render(t, u, 80, 24); !strings.Contains(got, "address already in use") || strings.Contains(got, "Page for phones") {
		t.Fatalf("a failed server is not said, or an address is shown:\n%s", got)
	}
}

// A click on the page's line opens the box, as m does, in the lobby and
// at the table.
func TestPhoneLineClickOpensBox(t *testing.T) {
	for _, table := range []bool{false, true} {
		u, _ := phoneUI("en", table)
		y := slices.IndexFunc(strings.Split(render(t, u, 80, 24), "\n"), func(l string) bool {
			return strings.Contains(l, "Page for phones")
		})
		if y < 0 {
			t.Fatalf("table %v: no line for the page", table)
		}
		u.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(5, y, tcell.Button1, tcell.ModNone))
		if u.overlay != overlayPhone {
			t.Errorf("table %v: a click on the page's line did not open the box", table)
		}
	}
}

// The code is encoded once per address; drawing it is part of every draw
// of the table.
func BenchmarkQRModules(b *testing.B) {
	for b.Loop() {
		if _, err := qrModules(phoneURL); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDrawTableWithCode(b *testing.B) {
	u, _ := phoneUI("en", true)
	s := newSim(b, 120, 40)
	for b.Loop() {
		u.Draw(s, 120, 40)
	}
}
