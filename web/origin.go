package web

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// tableOrigin is the game socket's Origin check: the page this server
// served, or the page of another program of a LAN table, which a web
// player whose serving program is gone uses to move its seat here
// (web/client.SeatMove: its key lives in that page's memory). Such a page
// is named by an IP literal in loopback, private or link-local space,
// as every program's page is (ipHost, lanIP); a page of a named site
// (DNS rebinding, a site on the internet) is refused, as is one on a
// public address. A request without an Origin is no browser's page.
func tableOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(u.Hostname(), "["), "]"))
	return err == nil && lanIP(a)
}
