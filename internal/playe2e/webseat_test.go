package playe2e

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"aeroplane/internal/netlab"
	"aeroplane/internal/webtest"
	"aeroplane/web/client"
)

// A person at the interactive program creates a table; a phone on the
// LAN (a web client over the table's page's game socket) sits down as
// Wendy and says a line: the table on the terminal shows her seat under
// her name, marked as on a phone, and her line in the chat.
func TestPlayWebPlayerSitsAtTable(t *testing.T) {
	t.Parallel()
	if !tmuxAvailable(t) || !netlab.Enter(t) {
		return
	}
	lan := netlab.NewLAN(t, 1)
	lan.JoinHere()
	inPeer0 := func(name string, args ...string) *exec.Cmd { return lan.Command(0, name, args...) }
	tm := startTerm(t, inPeer0, playerEnv(t.TempDir()), binary(), "--name", "ann", "--lang", "en")
	tm.waitFor("the LAN lobby", 200, contains("c create game"))
	tm.keys(keyCreate)
	s := tm.waitFor("the table with the page's address", 100, func(s string) bool { return phoneLine.MatchString(s) })
	url := phoneLine.FindStringSubmatch(s)[1]

	sock, _, err := webtest.Dial(url)
	if err != nil {
		t.Fatalf("the table's game socket: %v", err)
	}
	defer sock.Close()
	id, err := client.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := client.Join(ctx, sock, id); err != nil {
		t.Fatal(err)
	}
	if err := client.SendLobby(sock, client.LobbyCmd{T: client.CmdSit, Name: "Wendy"}); err != nil {
		t.Fatal(err)
	}
	// The phone's own view: seated at Ann's table.
	for seated := false; !seated; {
		select {
		case msg := <-sock.Recv():
			f, err := client.DecodeFrame(msg)
			if err != nil || f.Kind != client.KindLobby {
				continue
			}
			tb, err := client.ParseTable(f.Data)
			if err != nil || tb.Error != "" {
				t.Fatalf("the table answered %+v, %v", tb, err)
			}
			_, seated = tb.Seat(id.ID.String())
		case <-ctx.Done():
			t.Fatal("the phone was never seated")
		}
	}
	if err := client.SendChat(sock, "hello from the phone"); err != nil {
		t.Fatal(err)
	}
	screen := tm.waitFor("Wendy at the table, marked as on a phone, and her line", 100, contains("Wendy", "(phone)", "hello from the phone"))
	t.Logf("the table:\n%s", screen)
	tm.quitAndCheck()
}
