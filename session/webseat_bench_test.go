package session

import (
	"context"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"aeroplane/engine"
	"aeroplane/internal/netlab"
	"aeroplane/lockstep"
	"aeroplane/p2p"
	"aeroplane/ui"
	"aeroplane/web"
	"aeroplane/web/client"
)

// BenchmarkWebSeatGame plays, per iteration, two games of three players
// and a bot on one namespace's loopback: Ann, Bob and a web player whose
// node runs in a client over a real WebSocket to Ann's program (its
// frames relayed as seat frames), then Ann, Bob and Cat at a laptop of
// her own; it reports the time per roll of each, from Ann's start to her
// end: what the relay costs a roll against three laptops.
func BenchmarkWebSeatGame(b *testing.B) {
	if !netlab.Enter(b) {
		return
	}
	var webMS, webRolls, lapMS, lapRolls float64
	for b.Loop() {
		ms, rolls := benchTableGame(b, true)
		webMS, webRolls = webMS+ms, webRolls+rolls
		ms, rolls = benchTableGame(b, false)
		lapMS, lapRolls = lapMS+ms, lapRolls+rolls
	}
	b.ReportMetric(webMS/webRolls, "ms/roll-web")
	b.ReportMetric(lapMS/lapRolls, "ms/roll-laptop")
}

func benchSession(b *testing.B, name string) *NetSession {
	b.Helper()
	_, key := newID(b)
	s, err := NewNet(NetOptions{Name: name, DataDir: b.TempDir(), Key: key, Logger: slog.New(slog.DiscardHandler),
		ListenIPs: []net.IP{net.IPv4(127, 0, 0, 1)}, Transport: p2p.TransportConfig{Heartbeat: 100 * time.Millisecond},
		Linger: 300 * time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		s.Close()
		for range s.Events() {
		}
	})
	return s
}

// benchPerson plays s's seat: ready whenever asked, the first move;
// host, if set, is the program whose game it joins. It sends Ann's game
// time and log on done.
type benchEnd struct {
	who  *NetSession
	took time.Duration
	log  string
}

func benchPerson(s, host *NetSession, done chan<- benchEnd) {
	joined := false
	var start time.Time
	for e := range s.Events() {
		switch e := e.(type) {
		case ui.LobbyUpdate:
			if host == nil || joined {
				continue
			}
			if g, ok := gameOf(e, host); ok {
				joined = true
				_ = s.Join(g.ID)
			}
		case ui.TableUpdate:
			for _, st := range e.Seats {
				if st.You && !st.Ready && !e.Started {
					_ = s.SetReady(true)
				}
			}
		case ui.GameStarted:
			start = time.Now()
		case ui.Rolled:
			if e.YouChoose {
				_ = s.Choose(e.Moves[0])
			}
		case ui.GameOver:
			done <- benchEnd{s, time.Since(start), e.LogPath}
			return
		}
	}
	done <- benchEnd{who: s}
}

// benchTableGame plays one game and returns Ann's milliseconds and rolls.
func benchTableGame(b *testing.B, withWeb bool) (ms, rolls float64) {
	a, bob := benchSession(b, "Ann"), benchSession(b, "Bob")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := a.CreateGame(engine.DefaultRules()); err != nil {
		b.Fatal(err)
	}
	if err := a.SetSeat(engine.Yellow, "random"); err != nil {
		b.Fatal(err)
	}
	ends := make(chan benchEnd, 3)
	go benchPerson(a, nil, ends)
	go benchPerson(bob, a, ends)
	players := 2
	if withWeb {
		srv, err := web.Listen(web.Options{Addr: "127.0.0.1:0", Players: a.ServeWeb})
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		sock, err := dialWeb(srv.URLs()[0])
		if err != nil {
			b.Fatal(err)
		}
		defer sock.Close()
		id, err := client.NewIdentity()
		if err != nil {
			b.Fatal(err)
		}
		sat := false
		go client.Play(ctx, sock, id, client.GameConfig{OnTable: func(tb client.Table) {
			seat, seated := tb.Seat(id.ID.String())
			switch {
			case !seated && !sat && len(tb.Players) == 2:
				sat = true
				_ = client.SendLobby(sock, client.LobbyCmd{T: client.CmdSit, Name: "Wendy"})
			case seated && !seat.Ready:
				_ = client.SendLobby(sock, client.LobbyCmd{T: client.CmdReady, Ready: true})
			}
		}})
	} else {
		go benchPerson(benchSession(b, "Cat"), a, ends)
		players = 3
	}
	var ann benchEnd
	for i := range players {
		select {
		case e := <-ends:
			if e.log == "" {
				b.Fatalf("player %d saw no end", i)
			}
			if e.who == a {
				ann = e
			}
		case <-ctx.Done():
			b.Fatal("the game did not end")
		}
	}
	data, err := os.ReadFile(ann.log)
	if err != nil {
		b.Fatal(err)
	}
	v, err := lockstep.Verify(data)
	if err != nil || v.Phase != lockstep.PhaseOver || len(v.Setup.Players()) != 3 {
		b.Fatalf("the game: %v, %v", v, err)
	}
	return float64(ann.took.Microseconds()) / 1000, float64(v.Rolls)
}
