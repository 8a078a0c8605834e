package cli

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"aeroplane/session"
	"aeroplane/web"

	ma "github.com/multiformats/go-multiaddr"
)

// phoneServer serves the browser client to the phones at the player's
// table, as play's flags choose (the interface tells it where the player
// is: ui.Options.Web is AtTable):
//
//   - --no-web: never;
//   - --web ADDR: at ADDR from the start to the end of the program;
//   - neither: on the LAN address the game's host uses (never a wildcard),
//     on a free port, only while the player is at a table (a table being
//     set up or a game); it stops when they are back at the list of
//     games. The next table tries the same port first, so a phone that
//     kept the page finds it again.
//
// A server nobody is told about only widens what the machine exposes:
// by default it is up exactly while the table shows its address.
type phoneServer struct {
	policy webPolicy
	host   func() string // the default's IP ("": none, nothing served)
	listen func(addr string) (*web.Server, error)
	log    *slog.Logger

	mu      sync.Mutex
	srv     *web.Server
	port    int            // the default's last port, tried first next time
	closing sync.WaitGroup // servers stopping: Close can wait a second for their sockets
}

// webPolicy is what the flags chose.
type webPolicy uint8

const (
	webAtTable webPolicy = iota // the default
	webAlways                   // --web ADDR
	webNever                    // --no-web
)

func (w *webFlags) policy() webPolicy {
	switch {
	case w.off:
		return webNever
	case w.addr != "":
		return webAlways
	}
	return webAtTable
}

// newPhoneServer applies the flags: --web ADDR listens now (a bad or busy
// address stops the program before the interface starts); host names the
// default's address when a table opens; players gets the browsers that
// open the game socket (the session's ServeWeb: they sit at the
// player's table), nil for a session that seats none (offline: /ws
// answers 404).
func newPhoneServer(w *webFlags, host func() string, players func(*web.Conn), logger *slog.Logger) (*phoneServer, error) {
	p := &phoneServer{policy: w.policy(), host: host, log: logger,
		listen: func(addr string) (*web.Server, error) {
			return web.Listen(web.Options{Addr: addr, Logger: logger, Players: players})
		}}
	if p.policy == webAlways {
		srv, err := p.listen(w.addr)
		if err != nil {
			return nil, err
		}
		p.srv = srv
		logger.Info("web client served", "urls", srv.URLs())
	}
	return p, nil
}

// AtTable is told whether the player is at a table and returns the
// page's addresses from now on (none: not served). It never waits for a
// server to stop: the interface calls it.
func (p *phoneServer) AtTable(at bool) ([]string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.policy == webNever:
		return nil, nil
	case p.policy == webAlways:
		return p.srv.URLs(), nil
	case at && p.srv == nil:
		ip := p.host()
		if ip == "" {
			return nil, nil
		}
		srv, err := p.listen(net.JoinHostPort(ip, strconv.Itoa(p.port)))
		if err != nil && p.port != 0 { // the last port is taken meanwhile: any free one
			srv, err = p.listen(net.JoinHostPort(ip, "0"))
		}
		if err != nil {
			return nil, fmt.Errorf("%w (or choose the address with --web ADDR, or --no-web)", err)
		}
		p.srv = srv
		p.port = srvPort(srv)
		p.log.Info("web client served at the table", "urls", srv.URLs())
	case !at && p.srv != nil:
		p.stopLocked()
		return nil, nil
	}
	if p.srv == nil {
		return nil, nil
	}
	return p.srv.URLs(), nil
}

// stopLocked stops the server in the background: its listeners close at
// once, its sockets within a second (web.Server.Close).
func (p *phoneServer) stopLocked() {
	srv := p.srv
	p.srv = nil
	p.closing.Go(func() {
		if err := srv.Close(); err != nil {
			p.log.Warn("web client: stopping", "err", err)
		}
		p.log.Info("web client no longer served", "urls", srv.URLs())
	})
}

// Close stops serving and waits until every server has stopped.
func (p *phoneServer) Close() {
	p.mu.Lock()
	if p.srv != nil {
		p.stopLocked()
	}
	p.mu.Unlock()
	p.closing.Wait()
}

// srvPort is the port a server listens on (all its addresses share it).
func srvPort(srv *web.Server) int {
	for _, u := range srv.URLs() {
		if ap, err := netip.ParseAddrPort(hostPortOf(u)); err == nil {
			return int(ap.Port())
		}
	}
	return 0
}

// hostPortOf is the HOST:PORT of "http://HOST:PORT/".
func hostPortOf(url string) string {
	return strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
}

// lanIP is the IP of the first of addrs (multiaddrs, LAN addresses first,
// as p2p.DialableAddrs lists the host's) that is an IPv4 address: where
// the game's host is reached on the LAN, so where phones at the table
// reach the page; loopback only when the host has nothing else.
func lanIP(addrs []string) string {
	for _, a := range addrs {
		m, err := ma.NewMultiaddr(a)
		if err != nil {
			continue
		}
		if ip, err := m.ValueForProtocol(ma.P_IP4); err == nil {
			return ip
		}
	}
	return ""
}

// webSeater is a session that seats the browsers at its table.
type webSeater interface{ ServeWeb(*web.Conn) }

var _ webSeater = (*session.NetSession)(nil)

// webPlayers is the session's ServeWeb, nil for one that seats no web
// players (a session without a network).
func webPlayers(sess any) func(*web.Conn) {
	if n, ok := sess.(webSeater); ok {
		return n.ServeWeb
	}
	return nil
}
