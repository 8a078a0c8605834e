package web

import (
	"compress/gzip"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// page are the files the page may load, by URL path, with their types;
// nothing else under the assets is served.
var page = map[string]string{
	"/":             "text/html; charset=utf-8",
	"/app.js":       "text/javascript; charset=utf-8",
	"/board.js":     "text/javascript; charset=utf-8",
	"/style.css":    "text/css; charset=utf-8",
	"/wasm_exec.js": "text/javascript; charset=utf-8",
	"/client.wasm":  "application/wasm",
}

// csp lets the page run only its own scripts and the wasm it fetched from
// here, talk only to here, and be framed by nobody.
// csp lets the page's own code reach the game socket of another program
// of the table (ws:, moveTo: its serving program gone, the web player
// moves its seat there); which pages a socket takes is the server's
// Origin check (tableOrigin).
const csp = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self' ws:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

type handler struct {
	assets fs.FS
	log    *slog.Logger
	ws     *sockets
}

// newHandler serves the page from assets and the game socket with ws
// (nil: no socket).
func newHandler(assets fs.FS, log *slog.Logger, ws *sockets) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if ws == nil {
		ws = newSockets(nil, log)
	}
	return &handler{assets: assets, log: log, ws: ws}
}

// ipHost reports whether a request's Host names an IP literal: a name is
// how a page elsewhere would reach this server through DNS rebinding.
func ipHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	_, err := netip.ParseAddr(host)
	return err == nil
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-cache")
	if !ipHost(r.Host) {
		http.Error(w, "open this page by the IP address the table shows", http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "only GET", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == "/ws" {
		h.ws.serve(w, r)
		return
	}
	typ, ok := page[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch r.URL.Path {
	case "/":
		h.file(w, r, typ, "index.html")
	case "/client.wasm":
		h.wasm(w, r, typ)
	default:
		h.file(w, r, typ, strings.TrimPrefix(r.URL.Path, "/"))
	}
}

func (h *handler) file(w http.ResponseWriter, r *http.Request, typ, name string) {
	data, err := fs.ReadFile(h.assets, name)
	if err != nil {
		http.Error(w, "this aeroplane was built without its web client: run go generate ./web, then go build", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", typ)
	if r.Method == http.MethodHead {
		return
	}
	w.Write(data)
}

// wasm sends the client as stored, gzipped, to a browser that takes gzip
// (every browser does), and unpacks it for one that does not.
func (h *handler) wasm(w http.ResponseWriter, r *http.Request, typ string) {
	f, err := h.assets.Open(wasmGz)
	if err != nil {
		http.Error(w, "this aeroplane was built without its web client: run go generate ./web, then go build", http.StatusNotFound)
		return
	}
	defer f.Close()
	w.Header().Set("Content-Type", typ)
	w.Header().Add("Vary", "Accept-Encoding")
	var body io.Reader = f
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		w.Header().Set("Content-Encoding", "gzip")
	} else {
		zr, err := gzip.NewReader(f)
		if err != nil {
			h.log.Error("web: the embedded client is not gzip", "err", err)
			http.Error(w, "the embedded client is damaged: rebuild with go generate ./web", http.StatusInternalServerError)
			return
		}
		body = zr
	}
	if r.Method == http.MethodHead {
		return
	}
	if _, err := io.Copy(w, body); err != nil {
		h.log.Debug("web: sending the client", "err", err)
	}
}

func acceptsGzip(ae string) bool {
	for part := range strings.SplitSeq(ae, ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
