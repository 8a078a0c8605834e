package cli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"aeroplane/internal/webtest"
	"aeroplane/web"
	"aeroplane/web/client"
)

// serving says whether something answers HTTP at url now.
func serving(url string) bool {
	c := http.Client{Timeout: 2 * time.Second}
	res, err := c.Get(url)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return true
}

// The flags' policy, told the player's steps in the interface: the
// default serves on the host's LAN address (loopback here) only while
// the player is at a table, --web ADDR all the time, --no-web never;
// a session without a network serves nothing by default.
func TestPhoneServerPolicy(t *testing.T) {
	steps := []bool{false, true, true, false, true, false}
	cases := []struct {
		name  string
		flags webFlags
		host  string
		want  []bool // served after each step
	}{
		{"default", webFlags{}, "127.0.0.1", []bool{false, true, true, false, true, false}},
		{"--web ADDR", webFlags{addr: "127.0.0.1:0"}, "127.0.0.1", []bool{true, true, true, true, true, true}},
		{"--no-web", webFlags{off: true}, "127.0.0.1", []bool{false, false, false, false, false, false}},
		{"default offline", webFlags{}, "", []bool{false, false, false, false, false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := newPhoneServer(&c.flags, func() string { return c.host }, nil, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var seen []string
			for i, at := range steps {
				urls, err := p.AtTable(at)
				if err != nil {
					t.Fatalf("step %d (at table %v): %v", i, at, err)
				}
				p.closing.Wait() // a stopped server is gone before the check
				if got := len(urls) > 0; got != c.want[i] {
					t.Fatalf("step %d (at table %v): urls %q, want served %v", i, at, urls, c.want[i])
				}
				for _, u := range urls {
					if !strings.HasPrefix(u, "http://127.0.0.1:") {
						t.Errorf("step %d: served at %s, want the host's address", i, u)
					}
					if !serving(u) {
						t.Errorf("step %d: %s answers nothing", i, u)
					}
				}
				for _, u := range seen {
					if len(urls) == 0 && serving(u) {
						t.Errorf("step %d (at table %v): %s still answers", i, at, u)
					}
				}
				seen = append(seen, urls...)
			}
		})
	}
	// --web on an address that is busy stops the program at once.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := newPhoneServer(&webFlags{addr: ln.Addr().String()}, nil, nil, slog.New(slog.DiscardHandler)); err == nil {
		t.Errorf("--web %s (busy): no error", ln.Addr())
	}
}

// Leaving the table closes the page's listener: the port refuses
// connections, a page open on a phone included, and the next table
// serves on the same port again.
func TestPhoneServerClosesWhenLeavingTable(t *testing.T) {
	p, err := newPhoneServer(&webFlags{}, func() string { return "127.0.0.1" }, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	urls, err := p.AtTable(true)
	if err != nil || len(urls) != 1 {
		t.Fatalf("at the table: %q, %v", urls, err)
	}
	addr := hostPortOf(urls[0])
	phone, err := net.Dial("tcp", addr) // a phone holding a connection
	if err != nil {
		t.Fatal(err)
	}
	defer phone.Close()
	if urls, _ := p.AtTable(false); len(urls) != 0 {
		t.Fatalf("back at the list of games, still %q", urls)
	}
	p.closing.Wait()
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Fatalf("%s still accepts connections after the player left the table", addr)
	}
	phone.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = phone.Read(make([]byte, 1))
	var ne net.Error
	if err == nil || errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("the phone's connection: %v, want closed by the server (EOF or reset)", err)
	}
	again, err := p.AtTable(true)
	if err != nil || len(again) != 1 || again[0] != urls[0] {
		t.Errorf("the next table serves at %q (%v), want the same %s", again, err, urls[0])
	}
}

// A busy port at a table is said, with what the player can do, and the
// next table tries again.
func TestPhoneServerBusy(t *testing.T) {
	fail := errors.New("web: listening on 127.0.0.1: address already in use")
	p, err := newPhoneServer(&webFlags{}, func() string { return "127.0.0.1" }, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	calls := 0
	p.listen = func(addr string) (*web.Server, error) {
		calls++
		if calls == 1 {
			return nil, fail
		}
		return web.Listen(web.Options{Addr: addr})
	}
	if urls, err := p.AtTable(true); !errors.Is(err, fail) || len(urls) != 0 || !strings.Contains(err.Error(), "--no-web") {
		t.Fatalf("a failed listen: %q, %v", urls, err)
	}
	p.AtTable(false)
	if urls, err := p.AtTable(true); err != nil || len(urls) != 1 {
		t.Fatalf("the next table: %q, %v", urls, err)
	}
}

func TestLANIP(t *testing.T) {
	for _, c := range []struct {
		addrs []string
		want  string
	}{
		{[]string{"/ip4/10.213.0.3/tcp/4001/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN", "/ip4/10.213.0.3/udp/4001/quic-v1"}, "10.213.0.3"},
		{[]string{"/ip6/fe80::1/tcp/4001", "/ip4/192.168.1.5/tcp/4001"}, "192.168.1.5"},
		{[]string{"/ip4/127.0.0.1/tcp/4001"}, "127.0.0.1"},
		{[]string{"not a multiaddr"}, ""},
		{nil, ""},
	} {
		if got := lanIP(c.addrs); got != c.want {
			t.Errorf("lanIP(%q) = %q, want %q", c.addrs, got, c.want)
		}
	}
}

func dialPhone(page string) (*webtest.Socket, *http.Response, error) { return webtest.Dial(page) }

// The table's page serves the game socket to the session that seats web
// players (play's NetSession: ServeWeb gets each browser that proved its
// key); a session that seats none (offline) answers it 404.
func TestPhoneServerSeatsWebPlayers(t *testing.T) {
	got := make(chan *web.Conn, 1)
	for _, c := range []struct {
		name    string
		players func(*web.Conn)
	}{
		{"a network session", webPlayers(fakeNetSession{got})},
		{"offline", webPlayers(struct{}{})},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := newPhoneServer(&webFlags{}, func() string { return "127.0.0.1" }, c.players, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			urls, err := p.AtTable(true)
			if err != nil || len(urls) != 1 {
				t.Fatalf("at the table: %q, %v", urls, err)
			}
			sock, res, err := dialPhone(urls[0])
			if c.players == nil {
				if err == nil || res == nil || res.StatusCode != http.StatusNotFound {
					t.Fatalf("the offline table's socket: %v (%v)", err, res)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer sock.Close()
			id, err := client.NewIdentity()
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := client.Join(ctx, sock, id); err != nil {
				t.Fatal(err)
			}
			select {
			case conn := <-got:
				if conn.Peer() != id.ID {
					t.Fatalf("the session was handed %s, want the browser's %s", conn.Peer(), id.ID)
				}
			case <-ctx.Done():
				t.Fatal("the session never got the browser")
			}
		})
	}
}

// fakeNetSession seats web players as NetSession does, handing them on.
type fakeNetSession struct{ got chan *web.Conn }

func (f fakeNetSession) ServeWeb(c *web.Conn) { f.got <- c }
