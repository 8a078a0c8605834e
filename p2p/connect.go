package p2p

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/multiformats/go-multistream"
)

// ResolveAddr turns what a user typed into --connect into a peer to dial:
//
//   - a full multiaddr ending in /p2p/ID (what DialableAddrs shows) is used
//     as is;
//   - a multiaddr without /p2p/ID, or host:port, names a TCP listener
//     whose peer ID we learn by running a Noise handshake with it. Noise
//     proves the listener holds the key of that ID, so we learn the real
//     ID of whoever answers at that address; the user vouches for the
//     address itself, as when typing an IP into any LAN game.
//
// key is any private key (the host's own is fine): the probe authenticates
// us too, then hangs up.
func ResolveAddr(ctx context.Context, key crypto.PrivKey, s string) (peer.AddrInfo, error) {
	s = strings.TrimSpace(s)
	var addr ma.Multiaddr
	if strings.HasPrefix(s, "/") {
		a, err := ma.NewMultiaddr(s)
		if err != nil {
			return peer.AddrInfo{}, fmt.Errorf("p2p: %q is not a multiaddr: %w (expect /ip4/A.B.C.D/tcp/PORT/p2p/ID or HOST:PORT)", s, err)
		}
		if a, err = resolveTyped(ctx, a); err != nil {
			return peer.AddrInfo{}, err
		}
		if info, err := peer.AddrInfoFromP2pAddr(a); err == nil {
			return *info, nil
		}
		addr = a
	} else {
		host, port, err := net.SplitHostPort(s)
		if err != nil {
			return peer.AddrInfo{}, fmt.Errorf("p2p: %q is neither a multiaddr nor HOST:PORT: %w", s, err)
		}
		// The one name p2p ever looks up: the user typed it and vouches
		// for it. Names a peer gives are never resolved (lanaddr.go).
		ips, err := net.DefaultResolver.LookupIP(ctx, "ip", host)
		if err != nil || len(ips) == 0 {
			return peer.AddrInfo{}, fmt.Errorf("p2p: resolving %q: %w", host, err)
		}
		ip := ips[0]
		proto := "/ip4/"
		if ip.To4() == nil {
			proto = "/ip6/"
		}
		addr, err = ma.NewMultiaddr(proto + ip.String() + "/tcp/" + port)
		if err != nil {
			return peer.AddrInfo{}, fmt.Errorf("p2p: %q: %w", s, err)
		}
	}
	id, err := probePeerID(ctx, key, addr)
	if err != nil {
		return peer.AddrInfo{}, err
	}
	return peer.AddrInfo{ID: id, Addrs: []ma.Multiaddr{addr}}, nil
}

// probePeerID learns the peer ID listening at a TCP multiaddr by running
// multistream-select and a Noise handshake without an expected ID.
func probePeerID(ctx context.Context, key crypto.PrivKey, addr ma.Multiaddr) (peer.ID, error) {
	if _, err := addr.ValueForProtocol(ma.P_TCP); err != nil {
		return "", fmt.Errorf("p2p: %s: only a TCP address can be probed for its peer ID; add /p2p/ID", addr)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var d manet.Dialer
	c, err := d.DialContext(ctx, addr)
	if err != nil {
		return "", fmt.Errorf("p2p: connecting to %s: %w (is the peer running, and the address right?)", addr, err)
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl)
	}
	if err := multistream.SelectProtoOrFail(noise.ID, c); err != nil {
		return "", fmt.Errorf("p2p: %s does not speak libp2p Noise: %w (is it an aeroplane peer?)", addr, err)
	}
	tr, err := noise.New(noise.ID, key, nil)
	if err != nil {
		return "", err
	}
	st, err := tr.WithSessionOptions(noise.DisablePeerIDCheck())
	if err != nil {
		return "", err
	}
	sc, err := st.SecureOutbound(ctx, c, "")
	if err != nil {
		return "", fmt.Errorf("p2p: handshake with %s: %w", addr, err)
	}
	id := sc.RemotePeer()
	_ = sc.Close()
	if id == "" {
		return "", errors.New("p2p: the handshake gave no peer ID")
	}
	return id, nil
}

// resolveTyped turns a typed multiaddr that starts with /dns, /dns4 or
// /dns6 into one that starts with the IP the name has now. The host never
// resolves a name (a peer could pick it); one the user typed is theirs to
// vouch for, so it is looked up here, once. /dnsaddr, a list of addresses
// published by whoever owns the name, is not followed.
func resolveTyped(ctx context.Context, a ma.Multiaddr) (ma.Multiaddr, error) {
	if len(a) == 0 {
		return a, nil
	}
	network := ""
	switch a[0].Code() {
	case ma.P_DNS:
		network = "ip"
	case ma.P_DNS4:
		network = "ip4"
	case ma.P_DNS6:
		network = "ip6"
	case ma.P_DNSADDR:
		return nil, fmt.Errorf("p2p: %s: /dnsaddr is not followed; type the address it stands for (/ip4/A.B.C.D/tcp/PORT/p2p/ID or HOST:PORT)", a)
	default:
		return a, nil
	}
	name := a[0].Value()
	ips, err := net.DefaultResolver.LookupIP(ctx, network, name)
	if err == nil && len(ips) == 0 {
		err = errors.New("no address")
	}
	if err != nil {
		return nil, fmt.Errorf("p2p: resolving %q: %w (check the name, or type the IP address)", name, err)
	}
	ipc, err := manet.FromIP(ips[0])
	if err != nil {
		return nil, fmt.Errorf("p2p: %q resolved to %v: %w", name, ips[0], err)
	}
	return append(append(ma.Multiaddr{}, ipc...), a[1:]...), nil
}
