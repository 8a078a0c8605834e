package cli

import (
	"flag"
	"log/slog"

	"aeroplane/web"
)

// webFlags are --web and --no-web, shared by play and headless.
//
// --web ADDR serves the browser client there from start to end (a LAN
// or loopback address; ":PORT" means every LAN address); --no-web never.
// Without either, play serves it on its LAN address only while the
// player is at a table (phoneServer, phones.go), where the table shows
// the address; headless, which nobody watches to read an address from,
// serves nothing.
type webFlags struct {
	addr string
	off  bool
}

// addWebFlags registers the flags; atTable says the command serves at a
// table by default (play), so its help says so.
func addWebFlags(fs *flag.FlagSet, atTable bool) *webFlags {
	w := &webFlags{}
	def := "default: not served"
	if atTable {
		def = "default: on your LAN address, any free port,\nonly while you are at a table, which shows the address and a QR code"
	}
	fs.StringVar(&w.addr, "web", "", "serve the browser client for phones at `ADDR` all the time (HOST:PORT on the LAN or loopback;\n:PORT = every LAN address; "+def+")")
	fs.BoolVar(&w.off, "no-web", false, "never serve the browser client")
	return w
}

// check rejects contradictory flags before anything starts.
func (w *webFlags) check(offline bool) error {
	switch {
	case w.addr != "" && w.off:
		return usageError("--web and --no-web: give one")
	case w.addr != "" && offline:
		return usageError("--offline plays without a network: drop --web")
	}
	return nil
}

// start serves the client if asked to (nil, nil if not); players gets
// the browsers that open the game socket (session.NetSession.ServeWeb:
// they sit at this program's table), nil answers the socket 404.
func (w *webFlags) start(logger *slog.Logger, players func(*web.Conn)) (*web.Server, error) {
	if w.off || w.addr == "" {
		return nil, nil
	}
	return web.Listen(web.Options{Addr: w.addr, Logger: logger, Players: players})
}
