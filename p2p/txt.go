package p2p

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Advert is what a peer announces over mDNS.
type Advert struct {
	Version string  // ProtocolVersion of the sender
	ID      peer.ID // its libp2p identity
	Name    string  // the player's name
	Lobby   string  // the game it created or joined; empty if none
	Host    bool    // it created Lobby (it starts the game)
	Free    int     // free seats in Lobby, 0..4
	// A host also says what a lobby listing shows: the seats taken by
	// players and bots (Taken), and the rules (engine.Rules text).
	Taken int
	Rules string
	Addrs []ma.Multiaddr // where it listens (never with /p2p/)
}

// Limits of the TXT record. DNS caps each TXT string at 255 bytes, and one
// oversize string makes hashicorp/mdns fail to pack the whole answer, so the
// encoder refuses rather than truncates anything but names.
const (
	MaxNameLen  = 32 // bytes of a player or lobby name
	maxTXTLen   = 255
	maxTXTAddrs = 8
	maxSeats    = 4
)

var errTXT = errors.New("bad mDNS TXT record")

// CleanName makes s a valid player or lobby name: printable characters
// only, spaces collapsed, at most MaxNameLen bytes (never cutting a rune).
func CleanName(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if !unicode.IsPrint(r) || r == utf8.RuneError {
			continue
		}
		if space && b.Len() > 0 {
			if b.Len()+1 > MaxNameLen {
				break
			}
			b.WriteByte(' ')
		}
		space = false
		if b.Len()+utf8.RuneLen(r) > MaxNameLen {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

func validName(s string) bool { return CleanName(s) == s }

// EncodeTXT turns an advert into TXT strings, each under 255 bytes.
func EncodeTXT(a Advert) ([]string, error) {
	if a.ID == "" {
		return nil, fmt.Errorf("%w: no peer ID", errTXT)
	}
	if !validName(a.Name) || !validName(a.Lobby) {
		return nil, fmt.Errorf("%w: name %q or lobby %q not clean (use CleanName)", errTXT, a.Name, a.Lobby)
	}
	if a.Free < 0 || a.Free > maxSeats || a.Taken < 0 || a.Free+a.Taken > maxSeats {
		return nil, fmt.Errorf("%w: %d free and %d taken seats", errTXT, a.Free, a.Taken)
	}
	if (a.Taken != 0 || a.Rules != "") && !a.Host {
		return nil, fmt.Errorf("%w: taken seats or rules from a peer that hosts no game", errTXT)
	}
	if a.Rules != "" && !plainRules(a.Rules) {
		return nil, fmt.Errorf("%w: rules %q are not key=value,… text (use engine.Rules.String)", errTXT, a.Rules)
	}
	txt := []string{
		"v=" + a.Version,
		"id=" + a.ID.String(),
		"n=" + a.Name,
		"l=" + a.Lobby,
		"s=" + strconv.Itoa(a.Free),
	}
	if a.Host {
		txt = append(txt, "h=1", "t="+strconv.Itoa(a.Taken))
		if a.Rules != "" {
			txt = append(txt, "r="+a.Rules)
		}
	}
	// One key per address: DNS-SD keeps only the first of a key that
	// repeats (RFC 6763 §6.4), so a0, a1... and never a twice.
	for i, addr := range a.Addrs {
		if i == maxTXTAddrs {
			break
		}
		txt = append(txt, "a"+strconv.Itoa(i)+"="+addr.String())
	}
	for _, s := range txt {
		if len(s) >= maxTXTLen {
			return nil, fmt.Errorf("%w: field %.20q... is %d bytes", errTXT, s, len(s))
		}
	}
	return txt, nil
}

// ParseTXT reads an advert from TXT strings. It accepts fields in any
// order, ignores unknown keys (newer versions may add some), and rejects
// anything malformed: a peer's record is untrusted input. Addresses are
// a0..a7, in that order with none missing (one key each: DNS-SD clients
// keep only the first of a repeated key).
func ParseTXT(txt []string) (Advert, error) {
	var a Advert
	seen := map[string]bool{}
	var indexed [maxTXTAddrs]ma.Multiaddr
	for _, s := range txt {
		if len(s) >= maxTXTLen {
			return Advert{}, fmt.Errorf("%w: field of %d bytes", errTXT, len(s))
		}
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return Advert{}, fmt.Errorf("%w: field %q has no '='", errTXT, s)
		}
		if seen[k] {
			return Advert{}, fmt.Errorf("%w: key %q twice", errTXT, k)
		}
		seen[k] = true
		switch k {
		case "v":
			a.Version = v
		case "id":
			id, err := peer.Decode(v)
			if err != nil {
				return Advert{}, fmt.Errorf("%w: peer ID: %w", errTXT, err)
			}
			a.ID = id
		case "n", "l":
			if !validName(v) {
				return Advert{}, fmt.Errorf("%w: name %q", errTXT, v)
			}
			if k == "n" {
				a.Name = v
			} else {
				a.Lobby = v
			}
		case "s", "t":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > maxSeats || strconv.Itoa(n) != v {
				return Advert{}, fmt.Errorf("%w: seats %q", errTXT, s)
			}
			if k == "s" {
				a.Free = n
			} else {
				a.Taken = n
			}
		case "r":
			if !plainRules(v) {
				return Advert{}, fmt.Errorf("%w: rules %q", errTXT, v)
			}
			a.Rules = v
		case "h":
			if v != "1" {
				return Advert{}, fmt.Errorf("%w: host flag %q", errTXT, v)
			}
			a.Host = true
		default:
			i, ok := addrKey(k)
			if !ok {
				continue
			}
			addr, err := parseTXTAddr(v)
			if err != nil {
				return Advert{}, err
			}
			indexed[i] = addr
		}
	}
	for i, addr := range indexed {
		if addr == nil {
			if slices.ContainsFunc(indexed[i:], func(a ma.Multiaddr) bool { return a != nil }) {
				return Advert{}, fmt.Errorf("%w: address a%d missing", errTXT, i)
			}
			break
		}
		a.Addrs = append(a.Addrs, addr)
	}
	if !seen["v"] || !seen["id"] {
		return Advert{}, fmt.Errorf("%w: missing version or peer ID", errTXT)
	}
	if a.Free+a.Taken > maxSeats || (a.Taken != 0 || a.Rules != "") && !a.Host {
		return Advert{}, fmt.Errorf("%w: %d free and %d taken seats, rules %q, host %v", errTXT, a.Free, a.Taken, a.Rules, a.Host)
	}
	return a, nil
}

// addrKey reads an address key a0..a7 (no leading zeros), whose index it
// returns.
func addrKey(k string) (int, bool) {
	if len(k) != 2 || k[0] != 'a' || k[1] < '0' || k[1] >= '0'+maxTXTAddrs {
		return 0, false
	}
	return int(k[1] - '0'), true
}

// parseTXTAddr reads one advertised address: a canonical multiaddr without
// a peer ID.
func parseTXTAddr(v string) (ma.Multiaddr, error) {
	addr, err := ma.NewMultiaddr(v)
	if err != nil {
		return nil, fmt.Errorf("%w: address %q: %w", errTXT, v, err)
	}
	if _, err := addr.ValueForProtocol(ma.P_P2P); err == nil {
		return nil, fmt.Errorf("%w: address %q carries a peer ID", errTXT, v)
	}
	if addr.String() != v {
		return nil, fmt.Errorf("%w: address %q is not canonical", errTXT, v)
	}
	return addr, nil
}

// maxRulesText bounds the rules an advert carries (today's canonical
// text is under 60 bytes).
const maxRulesText = 96

// plainRules reports whether s could be rules text: key=value pairs of
// lower-case letters and digits, comma-separated, bounded. p2p carries it
// opaquely; what the rules mean, and whether they are canonical, is for
// the game above (engine.ParseRules where a game is listed).
func plainRules(s string) bool {
	if len(s) == 0 || len(s) > maxRulesText {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '=' || c == ',') {
			return false
		}
	}
	return true
}
