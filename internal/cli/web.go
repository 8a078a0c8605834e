package cli

import (
	"flag"
	"log/slog"

	"aeroplane/web"
)

// webFlags are --web and --no-web, shared by play and headless.
//
// Without either nothing is served: the table does not yet show the
// page's address, and a server nobody is told about only widens what
// the machine exposes. --web ADDR serves the browser client there (a
// LAN or loopback address; ":PORT" means every LAN address).
type webFlags struct {
	addr string
	off  bool
}

func addWebFlags(fs *flag.FlagSet) *webFlags {
	w := &webFlags{}
	fs.StringVar(&w.addr, "web", "", "serve the browser client at `ADDR` (HOST:PORT on the LAN or loopback; :PORT = every LAN address)")
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

// start serves the client if asked to (nil, nil if not).
func (w *webFlags) start(logger *slog.Logger) (*web.Server, error) {
	if w.off || w.addr == "" {
		return nil, nil
	}
	return web.Listen(web.Options{Addr: w.addr, Logger: logger})
}
