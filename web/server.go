package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"aeroplane/p2p"
)

// Options configures a Server.
type Options struct {
	// Addr is HOST:PORT to listen on. HOST must be a loopback, private or
	// link-local IP; empty HOST means every LAN address of the machine
	// (p2p.LANAddrs); PORT 0 picks a free one (the same on every address).
	Addr string
	// Assets are the page and client (default: the embedded Assets()).
	Assets fs.FS
	// Players, if set, gets every browser that opened the game socket
	// (/ws) and proved its key, on the socket's own goroutine (return
	// soon); without it /ws answers 404.
	Players func(*Conn)
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Server is the web client's HTTP server on the LAN.
type Server struct {
	lns  []net.Listener
	srv  *http.Server
	ws   *sockets
	wg   sync.WaitGroup
	once sync.Once
	log  *slog.Logger
}

// ErrNotLAN is returned for an address a web client must not be served on.
var ErrNotLAN = errors.New("web: only a loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7) or link-local address may serve the web client")

// lanIP is the same set p2p dials peers on: loopback, private and
// link-local space (netip's own predicates cover exactly those prefixes).
func lanIP(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast()
}

// hosts returns the IPs Addr's HOST names, each checked.
func hosts(host string) ([]netip.Addr, error) {
	if host == "" {
		ips, err := p2p.LANAddrs()
		if err != nil {
			return nil, err
		}
		var out []netip.Addr
		for _, ip := range ips {
			if a, ok := netip.AddrFromSlice(ip); ok && lanIP(a) {
				out = append(out, a.Unmap())
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: this machine has none (give --web 127.0.0.1:PORT to play from this machine's own browser)", ErrNotLAN)
		}
		return out, nil
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return nil, fmt.Errorf("web address %q: want an IP address, not a name: %w", host, err)
	}
	if !lanIP(a) {
		return nil, fmt.Errorf("web address %s: %w", host, ErrNotLAN)
	}
	return []netip.Addr{a.Unmap()}, nil
}

// Listen opens the listeners and starts serving.
func Listen(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Assets == nil {
		opts.Assets = Assets()
	}
	host, portText, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("web address %q: want HOST:PORT, e.g. 192.168.1.5:8080 or :8080: %w", opts.Addr, err)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("web address %q: bad port: %w", opts.Addr, err)
	}
	ips, err := hosts(host)
	if err != nil {
		return nil, err
	}
	s := &Server{log: opts.Logger}
	for _, ip := range ips {
		ln, err := net.Listen("tcp", netip.AddrPortFrom(ip, uint16(port)).String())
		if err != nil {
			s.closeListeners()
			return nil, fmt.Errorf("web: listening on %s: %w (choose another with --web ADDR, or --no-web)", ip, err)
		}
		if port == 0 {
			port = uint64(ln.Addr().(*net.TCPAddr).Port) // every address serves on the same port
		}
		s.lns = append(s.lns, ln)
	}
	s.ws = newSockets(opts.Players, opts.Logger)
	s.srv = &http.Server{
		Handler:           newHandler(opts.Assets, opts.Logger, s.ws),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelDebug),
	}
	for _, ln := range s.lns {
		s.wg.Go(func() {
			if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				s.log.Warn("web: serving stopped", "addr", ln.Addr(), "err", err)
			}
		})
	}
	return s, nil
}

func (s *Server) closeListeners() {
	for _, ln := range s.lns {
		ln.Close()
	}
}

// URLs are the page's addresses, one per listener: what the table shows
// (and a QR code carries) for a phone to open.
func (s *Server) URLs() []string {
	var out []string
	for _, ln := range s.lns {
		out = append(out, "http://"+ln.Addr().String()+"/")
	}
	return out
}

// Close stops serving: the listeners, then every connection (the game
// sockets included), and waits for the serving goroutines.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		s.ws.closeAll() // hijacked: Shutdown does not see them
		if err = s.srv.Shutdown(ctx); err != nil {
			err = s.srv.Close()
		}
		s.wg.Wait()
	})
	return err
}
