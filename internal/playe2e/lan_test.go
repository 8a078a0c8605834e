package playe2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/netlab"
)

var (
	// the key hint of a pending choice: "1 play move" or "1-3 play move"
	chooseHint = regexp.MustCompile(`(?:^|\s)1(?:-([2-9]))? play move`)
	// a line of the end screen's finishing order
	rankLine = regexp.MustCompile(`(\d)\. (Red|Blue|Yellow|Green)\b`)
	letters  = map[string]string{"Red": "R", "Blue": "B", "Yellow": "Y", "Green": "G"}
)

// A person runs `aeroplane` on a LAN where two headless peers have opened
// a game with a bot seat. The person sees both peers and their game in
// the lobby, joins it with a key, says ready with a key, chats, plays every move of the game with
// keys and reaches the end screen with the finishing order and the saved
// log. The peers print the same finishing order and history hash, and
// `aeroplane verify` on the person's log ends on that hash: the game on
// the screen is the game the protocol played.
func TestPlayLANWithHeadlessPeers(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	t0 := time.Now()
	lan := netlab.NewLAN(t, 3)
	host, guest, peers := hostAndGuest(t, lan, "party", 3, 1, "0", "players=p0,p1 free=1")

	tm, home := aliceAt(t, lan, 2)
	peerLine := regexp.MustCompile(`(?m)^\s+p[01]  \S{6}  /ip4/10\.213\.0\.[12]/`)
	tm.waitFor("the two peers and their game in the lobby", 400, func(s string) bool {
		return strings.Contains(s, "Your name: alice") &&
			strings.Contains(s, "Your address (for manual connect): /ip4/10.213.0.3/") &&
			strings.Contains(s, "1) p0's game: 3 of 4 seats taken") && // two players and the bot
			len(peerLine.FindAllString(s, -1)) == 2
	}, peers)
	tLobby := time.Since(t0)

	tm.keys(keyJoin1)
	// Seated at the first free colour, not ready: the headless peers are
	// ready by themselves, and the game starts when alice says she is.
	tm.waitFor("alice seated, not ready", 400, contains("Y alice", "you — not ready", "R p0", "G bot (", "r ready / not ready"), peers)
	tm.keys(keyReady)
	tm.waitFor("the game with the peers", 400, contains("The game begins.", "alice"), peers)
	tStart := time.Since(t0)

	// Play: chat once, then roll with the roll key when asked and answer
	// every choice by key (1, tab+enter, or the last number, in turn),
	// pressing only on a screen that changed
	// since the last press. The others vote a player absent who keeps
	// them waiting 3 s, so the screen is read often.
	const chat = "hello from alice"
	var (
		end      string
		chatSeen bool
		moves    int
		rolls    int
		last     string
	)
	tm.keys(keyChat)
	tm.typeText(chat)
	tm.keys(keySend)
	for i := 0; end == ""; i++ {
		if i >= 2400 {
			t.Fatalf("no end screen after %d moves:\n%s\n%s", moves, tm.screen(), peers())
		}
		s := tm.screen()
		chatSeen = chatSeen || strings.Contains(s, "alice: "+chat)
		switch m := chooseHint.FindStringSubmatch(bottomLine(s)); {
		case strings.Contains(s, "Game over") && strings.Contains(s, "Game log saved to"):
			end = s
		case s != last && strings.Contains(bottomLine(s), "space roll"):
			tm.keys(keyRoll)
			rolls++
			last = s
		case m == nil || s == last:
			time.Sleep(poll)
		default:
			n := "1"
			if m[1] != "" {
				n = m[1]
			}
			switch moves % 3 {
			case 0:
				tm.keys("1")
			case 1:
				tm.keys(keyNext, keyPlay)
			default:
				tm.keys(n)
			}
			moves++
			last = s
		}
	}
	tEnd := time.Since(t0)
	if moves == 0 {
		t.Fatalf("the game ended without a move of the player:\n%s", end)
	}
	if rolls == 0 {
		t.Errorf("the player never rolled with the roll key on the LAN")
	}
	if !chatSeen {
		t.Errorf("the chat line %q never showed in the chat panel", chat)
	}
	order := finishOrder(end)
	logs, _ := filepath.Glob(filepath.Join(home, "state", "aeroplane", "games", "game-*.log"))
	if len(logs) != 1 {
		t.Fatalf("saved games in the default data dir: %q, want one", logs)
	}
	if !strings.Contains(flat(inBox(end)), logs[0]) {
		t.Errorf("the end screen does not show the log path %s:\n%s", logs[0], end)
	}
	tm.quitAndCheck()

	hostOrder, hash := host.result(t, time.Minute)
	guestOrder, guestHash := guest.result(t, time.Minute)
	if hostOrder != guestOrder || hash != guestHash {
		t.Errorf("the peers disagree: p0 %s %s, p1 %s %s", hostOrder, hash, guestOrder, guestHash)
	}
	if order != hostOrder || len(order) != 4 {
		t.Errorf("finishing order on the screen %q, the peers' %q (4 seats)", order, hostOrder)
	}
	out, err := exec.Command(binary(), "verify", logs[0]).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: every signature") || !strings.Contains(string(out), "history "+hash) {
		t.Errorf("verify of the player's log: %v, want ok and history %s:\n%s", err, hash, out)
	}
	for _, h := range []*headless{host, guest} {
		// headless names the sender by peer ID
		if !regexp.MustCompile(`chat 12D3\S+: ` + chat).MatchString(h.stderr.String()) {
			t.Errorf("%s never got the chat line", h.name)
		}
		// Had the player been voted absent, a bot would have flown its
		// seat and the keys would have proved nothing.
		if strings.Contains(h.stderr.String(), "event absent") {
			t.Errorf("%s voted the player absent:\n%s", h.name, tail(h.stderr.String(), 20))
		}
	}
	if _, err := os.Stat(filepath.Join(home, "config", "aeroplane", "identity.key")); err != nil {
		t.Errorf("no identity in the default place: %v", err)
	}
	t.Logf("lobby seen at %v, game started at %v, end screen at %v after %d moves by key; total %v",
		tLobby.Round(time.Millisecond), tStart.Round(time.Millisecond), tEnd.Round(time.Millisecond), moves, time.Since(t0).Round(time.Millisecond))
	t.Logf("verify:\n%s", out)
}
